#ifndef NAVBENCH_CHDF5_SHIM_H
#define NAVBENCH_CHDF5_SHIM_H
// HDF5's type and property-list identifiers are macros that expand to global
// variables after an implicit H5open(); Swift imports neither, so each one is
// wrapped here in a static inline function.
#include <hdf5.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

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
static inline hid_t nb_H5P_DATASET_ACCESS(void) { return H5P_DATASET_ACCESS; }
static inline hid_t nb_H5P_GROUP_CREATE(void) { return H5P_GROUP_CREATE; }
static inline unsigned nb_H5F_ACC_RDONLY(void) { return H5F_ACC_RDONLY; }
static inline unsigned nb_H5F_ACC_TRUNC(void) { return H5F_ACC_TRUNC; }
static inline unsigned nb_H5F_ACC_EXCL(void) { return H5F_ACC_EXCL; }
static inline size_t nb_H5T_VARIABLE(void) { return H5T_VARIABLE; }

/// A file-access property list without HDF5's flock() locking (caller closes it). navbench's
/// files are written under a temporary name and renamed into place, so a reader never sees a
/// file being written; the locks only added a failure: a process spawned by another thread
/// inherits the writer's descriptor (and its exclusive lock) until it closes it, and a reader of
/// the renamed file then failed to open it.
static inline hid_t nb_fapl_without_locking(void) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0) H5Pset_file_locking(fapl, 0, 1);
    return fapl;
}

/// Turns off HDF5's automatic error-stack printing on this thread (the thread-safe library keeps
/// one error stack per thread); navbench reports its own errors.
static inline void nb_silence_errors(void) {
    static _Thread_local int silenced = 0;
    if (!silenced) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); silenced = 1; }
}

/// Reads a variable-length string attribute into a malloc'ed copy (caller frees), or NULL.
static inline char *nb_read_vlen_string_attr(hid_t attr, hid_t memtype) {
    char *value = NULL;
    if (H5Aread(attr, memtype, &value) < 0) return NULL;
    return value;
}
/// The type of the link `name` (H5L_TYPE_HARD, _SOFT, _EXTERNAL…), or -1 when it cannot be read.
/// Does not follow the link itself (only the intermediate components of `name`).
static inline int nb_link_type(hid_t loc, const char *name) {
    H5L_info_t info;
    if (H5Lget_info(loc, name, &info, H5P_DEFAULT) < 0) return -1;
    return (int)info.type;
}

/// For an external link `name`: copies its target file and object path (NUL-terminated,
/// truncated to the buffers) and returns 0; -1 when `name` is not a readable external link.
static inline int nb_elink_target(hid_t loc, const char *name, char *file, size_t fsize, char *obj, size_t osize) {
    H5L_info_t info;
    if (H5Lget_info(loc, name, &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_EXTERNAL) return -1;
    size_t n = info.u.val_size;
    if (n == 0 || n > (1u << 20)) return -1;
    char *buf = (char *)malloc(n);
    if (!buf) return -1;
    const char *f = NULL, *o = NULL; unsigned flags = 0;
    if (H5Lget_val(loc, name, buf, n, H5P_DEFAULT) < 0 || H5Lunpack_elink_val(buf, n, &flags, &f, &o) < 0) { free(buf); return -1; }
    snprintf(file, fsize, "%s", f ? f : "");
    snprintf(obj, osize, "%s", o ? o : "");
    free(buf);
    return 0;
}

typedef struct { char *buf; size_t len, cap; int count; } nb_strbuf;

static inline herr_t nb_visit_elink(hid_t g, const char *name, const H5L_info_t *info, void *op) {
    nb_strbuf *sb = (nb_strbuf *)op;
    if (info->type != H5L_TYPE_EXTERNAL) return 0;
    if (++sb->count > 10000) return 1;  // enough to report; stop visiting
    size_t need = strlen(name) + 2;
    if (sb->len + need + 1 > sb->cap) {
        size_t cap = (sb->cap + need) * 2;
        char *b = (char *)realloc(sb->buf, cap);
        if (!b) return -1;
        sb->buf = b; sb->cap = cap;
    }
    memcpy(sb->buf + sb->len, name, need - 2);
    sb->len += need - 2;
    sb->buf[sb->len++] = '\n';
    sb->buf[sb->len] = 0;
    return 0;
}

/// Every external link reachable from the root through hard links (external links are not
/// followed), one relative path per line; malloc'ed (caller frees) or NULL when there is none.
static inline char *nb_external_links(hid_t file) {
    nb_strbuf sb = {NULL, 0, 0, 0};
    H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, nb_visit_elink, &sb);
    return sb.buf;
}
#endif
