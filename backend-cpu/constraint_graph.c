// The constraint graph of the step (core/kernels/constraint_graph.h), built after the narrow phase:
// one contact edge per manifold, in manifold order. Everything that groups bodies (colours, waking,
// islands, shock levels, the split solver's lists, pe's batches) reads these edges.
#include "cpu_context.h"

rb_status rb_cpu_build_edges(rb_cpu_ctx *c)
{
    int n = c->manifold_count;
    if (!rb_cpu_reserve((void **)&c->edges, &c->edge_cap, n, sizeof *c->edges))
        return RB_ERR_OUT_OF_MEMORY;
    int first = 0;
    for (int i = 0; i < n; ++i) {
        const rb_contact_manifold *m = &c->manifolds[i];
        c->edges[i] = rb_contact_edge(m->body_a, m->body_b, first, m->m.count);
        first += m->m.count;
    }
    c->edge_count = n;
    return rb_cpu_build_joint_edges(c);
}
