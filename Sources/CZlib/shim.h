#ifndef NAVBENCH_CZLIB_SHIM_H
#define NAVBENCH_CZLIB_SHIM_H
// zlib (Debian zlib1g-dev): gzip-compressed trajectory text is inflated in memory.
#include <zlib.h>

/// inflateInit2 is a macro; 15 + 32 = window 2^15 with gzip/zlib header auto-detection.
static inline int nb_inflate_init_gzip(z_stream *s) { return inflateInit2(s, 15 + 32); }
#endif
