// The OpenCL program of the rubble backend: every kernel of the kernel set. embed_kernels.py inlines
// the #includes (these files and core/kernels/) into one string at build time.
#include "common.cl"
#include "scan.cl"
#include "bounds.cl"
#include "broad_phase.cl"
#include "narrow_phase.cl"
#include "batches.cl"
#include "solve.cl"
#include "integrate.cl"
