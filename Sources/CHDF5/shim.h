#ifndef NAVBENCH_CHDF5_SHIM_H
#define NAVBENCH_CHDF5_SHIM_H
// HDF5's type and property-list identifiers are macros that expand to global
// variables after an implicit H5open(); Swift imports neither, so each one is
// wrapped here in a static inline function.
#include <hdf5.h>
#include <stdlib.h>

static inline hid_t nb_H5P_DEFAULT(void) { return H5P_DEFAULT; }
static inline hid_t nb_H5S_ALL(void) { return H5S_ALL; }
static inline hid_t nb_H5E_DEFAULT(void) { return H5E_DEFAULT; }
static inline hid_t nb_H5T_NATIVE_DOUBLE(void) { return H5T_NATIVE_DOUBLE; }
static inline hid_t nb_H5T_NATIVE_FLOAT(void) { return H5T_NATIVE_FLOAT; }
static inline hid_t nb_H5T_NATIVE_INT32(void) { return H5T_NATIVE_INT32; }
static inline hid_t nb_H5T_NATIVE_INT64(void) { return H5T_NATIVE_INT64; }
static inline hid_t nb_H5T_NATIVE_INT8(void) { return H5T_NATIVE_INT8; }
static inline hid_t nb_H5T_IEEE_F64LE(void) { return H5T_IEEE_F64LE; }
static inline hid_t nb_H5T_STD_I32LE(void) { return H5T_STD_I32LE; }
static inline hid_t nb_H5T_STD_I64LE(void) { return H5T_STD_I64LE; }
static inline hid_t nb_H5T_STD_I8LE(void) { return H5T_STD_I8LE; }
static inline hid_t nb_H5T_C_S1(void) { return H5T_C_S1; }
static inline hid_t nb_H5P_FILE_CREATE(void) { return H5P_FILE_CREATE; }
static inline hid_t nb_H5P_FILE_ACCESS(void) { return H5P_FILE_ACCESS; }
static inline hid_t nb_H5P_DATASET_CREATE(void) { return H5P_DATASET_CREATE; }
static inline hid_t nb_H5P_GROUP_CREATE(void) { return H5P_GROUP_CREATE; }
static inline unsigned nb_H5F_ACC_RDONLY(void) { return H5F_ACC_RDONLY; }
static inline unsigned nb_H5F_ACC_TRUNC(void) { return H5F_ACC_TRUNC; }
static inline size_t nb_H5T_VARIABLE(void) { return H5T_VARIABLE; }

/// Turns off HDF5's automatic error-stack printing; navbench reports its own errors.
static inline void nb_silence_errors(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

/// Reads a variable-length string attribute into a malloc'ed copy (caller frees), or NULL.
static inline char *nb_read_vlen_string_attr(hid_t attr, hid_t memtype) {
    char *value = NULL;
    if (H5Aread(attr, memtype, &value) < 0) return NULL;
    return value;
}
#endif
