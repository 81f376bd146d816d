// ODE driver of the standard scenes (docs/bench-scenes.md); see README.md for the settings.
//   ode_bench --scene pyramid|stack|pile|pile:S|boxes [--steps N] [--seed S] [--space hash|sap]
// One world, quickstep with 10 iterations at dt = 1/60, ERP 0.2, CFM 1e-5, contact surface layer
// 0.001, no auto-disable; up to 4 contacts per geom pair, Coulomb friction mu = 0.6 (friction
// pyramid, dContactApprox1), no bounce; contact joints emptied after each step.
#include <ode/ode.h>

#include "bench_common.h"

#ifndef ODE_VERSION_STRING
#define ODE_VERSION_STRING "unknown"
#endif

#define MAX_CONTACTS 4 // per geom pair: ODE's usual choice (box-box can make up to 8)

typedef struct {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID *bodies; // dynamic bodies in creation order
    int count, capacity;
    int contacts_last;
} ode_ctx;

static void push_body(ode_ctx *c, dBodyID b)
{
    if (c->count == c->capacity) {
        c->capacity = c->capacity ? 2 * c->capacity : 1024;
        c->bodies = (dBodyID *)realloc(c->bodies, (size_t)c->capacity * sizeof *c->bodies);
    }
    c->bodies[c->count++] = b;
}

static void add_wall(void *ctx, vec3 p, vec3 h)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dGeomID g = dCreateBox(c->space, 2 * h.x, 2 * h.y, 2 * h.z); // a geom with no body is static
    dGeomSetPosition(g, p.x, p.y, p.z);
}

static dBodyID add_body(ode_ctx *c, vec3 p, dGeomID g, const dMass *m)
{
    dBodyID b = dBodyCreate(c->world);
    dBodySetMass(b, m);
    dBodySetPosition(b, p.x, p.y, p.z);
    dGeomSetBody(g, b);
    push_body(c, b);
    return b;
}

static void add_box(void *ctx, vec3 p, quat q, double half)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 2 * half, 2 * half, 2 * half);
    dBodyID b = add_body(c, p, dCreateBox(c->space, 2 * half, 2 * half, 2 * half), &m);
    dQuaternion r = {q.w, q.x, q.y, q.z}; // ODE: w, x, y, z
    dBodySetQuaternion(b, r);
}

static void add_sphere(void *ctx, vec3 p, double radius)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dMass m;
    dMassSetSphereTotal(&m, 1.0, radius);
    add_body(c, p, dCreateSphere(c->space, radius), &m);
}

static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    ode_ctx *c = (ode_ctx *)data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 && !b2)
        return; // static-static (wall-wall, wall-ground)
    dContact contact[MAX_CONTACTS];
    int n = dCollide(o1, o2, MAX_CONTACTS, &contact[0].geom, sizeof(dContact));
    for (int i = 0; i < n; ++i) {
        contact[i].surface.mode = dContactApprox1; // mu is a coefficient (friction pyramid); no bounce
        contact[i].surface.mu = 0.6;
        contact[i].surface.bounce = 0.0;
        dJointID j = dJointCreateContact(c->world, c->contacts, &contact[i]);
        dJointAttach(j, b1, b2);
    }
    c->contacts_last += n;
}

static void step(void *ctx)
{
    ode_ctx *c = (ode_ctx *)ctx;
    c->contacts_last = 0;
    dSpaceCollide(c->space, c, near_callback);
    dWorldQuickStep(c->world, 1.0 / 60.0);
    dJointGroupEmpty(c->contacts);
}

static void set_sleep(void *ctx, int on)
{
    dWorldSetAutoDisableFlag(((ode_ctx *)ctx)->world, on); // ODE's auto-disable with its defaults
}

static int awake(void *ctx)
{
    ode_ctx *c = (ode_ctx *)ctx;
    int n = 0;
    for (int i = 0; i < c->count; ++i)
        n += dBodyIsEnabled(c->bodies[i]) != 0;
    return n;
}

static int contacts(void *ctx)
{
    return ((ode_ctx *)ctx)->contacts_last;
}

static void read_body(void *ctx, int i, vec3 *p, vec3 *v)
{
    ode_ctx *c = (ode_ctx *)ctx;
    const dReal *x = dBodyGetPosition(c->bodies[i]), *u = dBodyGetLinearVel(c->bodies[i]);
    *p = v3(x[0], x[1], x[2]);
    *v = v3(u[0], u[1], u[2]);
}

int main(int argc, char **argv)
{
    // --space hash|sap is ours; the rest goes to bench_main
    const char *space = "hash";
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--space") == 0 && i + 1 < argc)
            space = argv[++i];
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    if (strcmp(space, "hash") != 0 && strcmp(space, "sap") != 0) {
        fprintf(stderr, "ode_bench: --space hash or sap expected\n");
        return 2;
    }

    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    ode_ctx c = {0};
    c.world = dWorldCreate();
    dWorldSetGravity(c.world, 0.0, -9.81, 0.0);
    dWorldSetQuickStepNumIterations(c.world, 10);
    dWorldSetERP(c.world, 0.2);                    // ODE's default
    dWorldSetCFM(c.world, 1e-5);                   // ODE's single-precision default, as in its demos
    dWorldSetContactSurfaceLayer(c.world, 0.001);  // as in ODE's demos; the default is 0
    dWorldSetAutoDisableFlag(c.world, 0);          // no sleeping (--sleep: set_sleep)
    c.space = strcmp(space, "sap") == 0 ? dSweepAndPruneSpaceCreate(0, dSAP_AXES_XZY) : dHashSpaceCreate(0);
    c.contacts = dJointGroupCreate(0);
    dCreatePlane(c.space, 0.0, 1.0, 0.0, 0.0); // the ground y = 0

    char solver[64];
    snprintf(solver, sizeof solver, "quickstep/%s", space);
    engine e = {"ode", ODE_VERSION_STRING, solver, add_wall, add_box, add_sphere, step, contacts, read_body,
                set_sleep, awake};
    int status = bench_main(argc, argv, &e, &c);

    dJointGroupDestroy(c.contacts);
    dSpaceDestroy(c.space); // destroys its geoms
    dWorldDestroy(c.world);
    free(c.bodies);
    dCloseODE();
    return status;
}
