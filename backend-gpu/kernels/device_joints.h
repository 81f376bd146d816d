// Joints on the device (core/kernels/joint.h, docs/joints.md): one launch per colour of the joint
// edges (a colour holds no dynamic body twice), the overflow by one work-item, and the reactions after
// the last substep. The colouring and the order run on the host (gpu_pipeline.c), as for the contacts,
// so the sweeps are those of the CPU backend. The warm start computes each joint's geometry at the
// solve's poses and keeps it in `kept` (one entry per joint in colour order); the iterations, at the
// same poses, read it back (rb_joint_op: the same bits as computing it again).

// Joints order[lo .. lo + n) of one colour, in parallel.
RB_KERNEL void rb_joints_color(int lo, int n, rb_joint_args ja, RB_GLOBAL rb_joint *joints, RB_GLOBAL const int *order,
                              RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                              RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang, RB_GLOBAL const rb_float4 *inv_diag,
                              RB_GLOBAL const rb_float4 *inv_off, RB_GLOBAL rb_joint_kept *kept)
{
    int i = rb_thread_id();
    if (i >= n)
        return;
    rb_joint_settings st = rb_joint_settings_of(ja);
    int op = ja.pass_op % 2;
    rb_joint_op(&joints[order[lo + i]], op, &st, flags, pos, rot, lin, ang, inv_diag, inv_off, 0, 0, &kept[lo + i],
                     op == RB_JOINT_OP_WARM);
}

// The overflow (joints that found every colour taken), in order, by one work-item.
RB_KERNEL void rb_joints_serial(int lo, int n, rb_joint_args ja, RB_GLOBAL rb_joint *joints, RB_GLOBAL const int *order,
                               RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                               RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang, RB_GLOBAL const rb_float4 *inv_diag,
                               RB_GLOBAL const rb_float4 *inv_off, RB_GLOBAL rb_joint_kept *kept)
{
    if (rb_thread_id() != 0)
        return;
    rb_joint_settings st = rb_joint_settings_of(ja);
    int op = ja.pass_op % 2;
    for (int i = 0; i < n; ++i)
        rb_joint_op(&joints[order[lo + i]], op, &st, flags, pos, rot, lin, ang, inv_diag, inv_off, 0, 0,
                         &kept[lo + i], op == RB_JOINT_OP_WARM);
}

// The reactions after the last substep; a joint that breaks raises RB_CNT_JOINT_BROKE (every writer
// writes 1: no atomics needed), and the host then reads the joints back.
RB_KERNEL void rb_joints_finish(int n, float inv_h, RB_GLOBAL rb_joint *joints, RB_GLOBAL const int *order,
                               RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                               RB_GLOBAL const rb_float4 *lin, RB_GLOBAL const rb_float4 *ang,
                               RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_float4 *inv_off,
                               RB_GLOBAL int *counters)
{
    int i = rb_thread_id();
    if (i >= n)
        return;
    if (rb_joint_finish(&joints[order[i]], inv_h, flags, pos, rot, lin, ang, inv_diag, inv_off))
        counters[RB_CNT_JOINT_BROKE] = 1;
}
