// The OpenCL program, embedded at build time (embed_kernels.py, from kernels/rubble.cl and core/kernels/).
#ifndef RB_OPENCL_SOURCE_H
#define RB_OPENCL_SOURCE_H

extern const char rb_opencl_program_source[];
extern const unsigned long rb_opencl_program_source_size;

#endif
