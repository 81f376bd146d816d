// The kernels as nvcc built them (kernels.cu), linked into the module by cuda_fatbin.c, which
// embed_fatbin.py writes at build time.
#ifndef RB_CUDA_FATBIN_H
#define RB_CUDA_FATBIN_H

extern const unsigned char rb_cuda_fatbin[];
// The architectures in it: "sm_75 sm_80 ... compute_121" (meson option cuda-arch).
extern const char rb_cuda_arch_list[];

#endif
