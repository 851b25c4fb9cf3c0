#ifndef NAVBENCH_CFFTW_SHIM_H
#define NAVBENCH_CFFTW_SHIM_H
#include <fftw3.h>
// FFTW's planner flags are macros; Swift sees them through these functions.
static inline unsigned nb_FFTW_ESTIMATE(void) { return FFTW_ESTIMATE; }
static inline unsigned nb_FFTW_MEASURE(void) { return FFTW_MEASURE; }
static inline unsigned nb_FFTW_PRESERVE_INPUT(void) { return FFTW_PRESERVE_INPUT; }
#endif
