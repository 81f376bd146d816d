// ODE driver of the standard scenes (docs/bench-scenes.md); see README.md for the settings.
//   ode_bench --scene pyramid|stack|pile|pile:S|boxes|rocks|chain|ragdolls [--steps N] [--seed S] [--sleep]
//             [--space hash|sap]
// One world, quickstep with 10 iterations at dt = 1/60, ERP 0.2, CFM 1e-5, contact surface layer
// 0.001, no auto-disable; up to 4 contacts per geom pair, Coulomb friction mu = 0.6 (friction
// pyramid, dContactApprox1), no bounce; contact joints emptied after each step. Jointed scenes:
// ball = dJointCreateBall, hinge = dJointCreateHinge with stops, cone-twist = ball + an Euler
// AMotor with stops on its three angles (ODE has no cone limit); jointed pairs do not collide.
// rocks: dCreateConvex from rocks_scene.h's hull (planes, points, counter-clockwise polygons), the
// solid hull's full inertia tensor with dMassSetParameters; contacts as for every other scene.
#include <ode/ode.h>

#include "bench_common.h"

#ifndef ODE_VERSION_STRING
#define ODE_VERSION_STRING "unknown"
#endif

#define MAX_CONTACTS 4 // per geom pair: ODE's usual choice (box-box can make up to 8)
#define DT (1.0 / 60.0)

typedef struct {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID *bodies; // dynamic bodies in creation order
    int count, capacity;
    int contacts_last;
    int jointed; // a joint was made: skip pairs of jointed bodies in the near callback
    struct ode_convex **convex; // rocks: the arrays each convex geom points to (ODE does not copy them)
    int convex_count;
} ode_ctx;

// One hull in ODE's convex format: planes (a, b, c, d) with a x + b y + c z = d, the unit normal
// outward; points x, y, z; polygons as the vertex count followed by the indices, counter-clockwise
// seen from outside (as ODE's own demo cube), polygon f lying on plane f.
typedef struct ode_convex {
    dReal planes[4 * ROCKS_MAX_FACES];
    dReal points[3 * ROCKS_MAX_VERTICES];
    unsigned int polygons[ROCKS_MAX_FACES + ROCKS_MAX_LOOP];
} ode_convex;

static void push_body(ode_ctx *c, dBodyID b)
{
    if (c->count == c->capacity) {
        c->capacity = c->capacity ? 2 * c->capacity : 1024;
        c->bodies = (dBodyID *)realloc(c->bodies, (size_t)c->capacity * sizeof *c->bodies);
    }
    c->bodies[c->count++] = b;
}

static void add_ground(void *ctx)
{
    dCreatePlane(((ode_ctx *)ctx)->space, 0.0, 1.0, 0.0, 0.0); // the ground y = 0
}

static void add_wall(void *ctx, vec3 p, vec3 h)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dGeomID g = dCreateBox(c->space, 2 * h.x, 2 * h.y, 2 * h.z); // a geom with no body is static
    dGeomSetPosition(g, p.x, p.y, p.z);
}

static dBodyID add_body_geom(ode_ctx *c, vec3 p, dGeomID g, const dMass *m)
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
    dBodyID b = add_body_geom(c, p, dCreateBox(c->space, 2 * half, 2 * half, 2 * half), &m);
    dQuaternion r = {q.w, q.x, q.y, q.z}; // ODE: w, x, y, z
    dBodySetQuaternion(b, r);
}

static void add_sphere(void *ctx, vec3 p, double radius)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dMass m;
    dMassSetSphereTotal(&m, 1.0, radius);
    add_body_geom(c, p, dCreateSphere(c->space, radius), &m);
}

// A body of a jointed scene: mass and inertia as given (dMassSetParameters), a capsule's axis is the
// body's local y (ODE's capsule geom lies along its z, so the geom is turned by -90 deg about x),
// damping converted to ODE's per-step scale: Bullet's v <- v (1 - d)^dt is ODE's v <- v (1 - scale).
static void add_body(void *ctx, const scn_body *d)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dMass m;
    dMassSetParameters(&m, d->mass, 0.0, 0.0, 0.0, d->inertia.x, d->inertia.y, d->inertia.z, 0.0, 0.0, 0.0);
    dGeomID g = d->shape == SCN_CAPSULE ? dCreateCapsule(c->space, d->radius, d->length)
                                        : dCreateSphere(c->space, d->radius);
    dBodyID b = add_body_geom(c, d->position, g, &m);
    dQuaternion r = {d->orientation.w, d->orientation.x, d->orientation.y, d->orientation.z};
    dBodySetQuaternion(b, r);
    if (d->shape == SCN_CAPSULE) {
        // -90 deg about x: geom z -> body y. Written out, because dRFromAxisAndAngle leaves cos(pi/2) =
        // 6e-17 where 0 belongs, which tilts every capsule out of the ragdolls' plane of symmetry.
        const dMatrix3 R = {1, 0, 0, 0, /**/ 0, 0, 1, 0, /**/ 0, -1, 0, 0}; // rows, ODE's 3 x 4 layout
        dGeomSetOffsetRotation(g, R);
    }
    if (d->linear_damping > 0.0 || d->angular_damping > 0.0) {
        dBodySetLinearDamping(b, 1.0 - pow(1.0 - d->linear_damping, DT));
        dBodySetAngularDamping(b, 1.0 - pow(1.0 - d->angular_damping, DT));
        dBodySetLinearDampingThreshold(b, 0.0); // ODE damps only above a threshold speed (default 0.01)
        dBodySetAngularDampingThreshold(b, 0.0);
    }
}

// A rock: dCreateConvex over the hull; 1 kg with the full inertia tensor of the solid hull in body axes
// (dMassSetParameters: I11, I22, I33, I12, I13, I23 = the tensor's entries, products of inertia with
// their minus sign), the centre of mass at the body origin (the hull's centroid, 0 by symmetry: its
// computed value is below 1e-16 m).
static void add_hull(void *ctx, vec3 p, quat q, const rocks_hull *h, const rocks_mass *mm)
{
    ode_ctx *c = (ode_ctx *)ctx;
    ode_convex *cv = (ode_convex *)malloc(sizeof *cv);
    if ((c->convex_count & (c->convex_count - 1)) == 0) { // 0, 1, 2, 4, ...: double the list
        size_t room = c->convex_count ? 2 * (size_t)c->convex_count : 1;
        c->convex = (ode_convex **)realloc(c->convex, room * sizeof *c->convex);
    }
    c->convex[c->convex_count++] = cv;
    for (int f = 0; f < h->face_count; ++f)
        for (int k = 0; k < 4; ++k)
            cv->planes[4 * f + k] = h->plane[f][k];
    for (int v = 0; v < h->vertex_count; ++v)
        for (int k = 0; k < 3; ++k)
            cv->points[3 * v + k] = h->vertex[v][k];
    unsigned int *poly = cv->polygons;
    for (int f = 0; f < h->face_count; ++f) {
        *poly++ = (unsigned int)h->face_size[f];
        for (int a = 0; a < h->face_size[f]; ++a)
            *poly++ = (unsigned int)h->index[h->face_first[f] + a];
    }
    dGeomID g = dCreateConvex(c->space, cv->planes, (unsigned int)h->face_count, cv->points,
                              (unsigned int)h->vertex_count, cv->polygons);
    const double(*I)[3] = mm->inertia;
    dMass m;
    dMassSetParameters(&m, mm->mass, 0.0, 0.0, 0.0, I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]);
    dBodyID b = add_body_geom(c, p, g, &m);
    dQuaternion r = {q.w, q.x, q.y, q.z};
    dBodySetQuaternion(b, r);
}

// ODE's anchor setters take one world point for both bodies. The scenes' anchors p_A and p_B differ,
// so B is moved by p_A - p_B while the anchor is set (B's anchor point then lies on p_A), and moved back.
static void add_joint(void *ctx, const scn_joint *j)
{
    ode_ctx *c = (ode_ctx *)ctx;
    dBodyID a = j->body_a == SCN_WORLD ? 0 : c->bodies[j->body_a], b = c->bodies[j->body_b];
    vec3 pa = j->anchor_a, z = scn_axis(j->frame, 2), x = scn_axis(j->frame, 0);
    const dReal *pb = dBodyGetPosition(b);
    vec3 home = v3(pb[0], pb[1], pb[2]);
    dBodySetPosition(b, home.x + pa.x - j->anchor_b.x, home.y + pa.y - j->anchor_b.y, home.z + pa.z - j->anchor_b.z);
    if (j->type == SCN_HINGE) {
        dJointID h = dJointCreateHinge(c->world, 0);
        dJointAttach(h, a, b);
        dJointSetHingeAnchor(h, pa.x, pa.y, pa.z);
        dJointSetHingeAxis(h, z.x, z.y, z.z);
        // dJointGetHingeAngle is -theta (A relative to B), so lo <= theta <= hi is -hi <= angle <= -lo
        dJointSetHingeParam(h, dParamLoStop, -j->hi);
        dJointSetHingeParam(h, dParamHiStop, -j->lo);
    } else { // ball, and the ball of a cone-twist
        dJointID s = dJointCreateBall(c->world, 0);
        dJointAttach(s, a, b);
        dJointSetBallAnchor(s, pa.x, pa.y, pa.z);
    }
    if (j->type == SCN_CONE_TWIST) {
        // no cone limit in ODE: an Euler AMotor, axis 0 = ẑ fixed in A (swing 1), axis 2 = x̂ fixed in B
        // (twist), axis 1 = axis 2 x axis 0 = -ŷ (swing 2); each angle stopped at +-its span, so the
        // swing limit is a square, not the circular cone
        dJointID m = dJointCreateAMotor(c->world, 0);
        dJointAttach(m, a, b);
        dJointSetAMotorMode(m, dAMotorEuler);
        dJointSetAMotorAxis(m, 0, 1, z.x, z.y, z.z);
        dJointSetAMotorAxis(m, 2, 2, x.x, x.y, x.z);
        dJointSetAMotorParam(m, dParamLoStop1, -j->swing);
        dJointSetAMotorParam(m, dParamHiStop1, j->swing);
        dJointSetAMotorParam(m, dParamLoStop2, -j->swing);
        dJointSetAMotorParam(m, dParamHiStop2, j->swing);
        dJointSetAMotorParam(m, dParamLoStop3, -j->twist);
        dJointSetAMotorParam(m, dParamHiStop3, j->twist);
    }
    dBodySetPosition(b, home.x, home.y, home.z);
    c->jointed = 1;
}

static void near_callback(void *data, dGeomID o1, dGeomID o2)
{
    ode_ctx *c = (ode_ctx *)data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 && !b2)
        return; // static-static (wall-wall, wall-ground)
    if (c->jointed && b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return; // jointed pairs do not collide
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
    dWorldQuickStep(c->world, DT);
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

static void read_pose(void *ctx, int i, vec3 *p, quat *q, vec3 *v)
{
    ode_ctx *c = (ode_ctx *)ctx;
    const dReal *x = dBodyGetPosition(c->bodies[i]), *r = dBodyGetQuaternion(c->bodies[i]);
    const dReal *u = dBodyGetLinearVel(c->bodies[i]);
    *p = v3(x[0], x[1], x[2]);
    *q = scn_q(r[0], r[1], r[2], r[3]); // ODE: w, x, y, z
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

    char solver[64];
    snprintf(solver, sizeof solver, "quickstep/%s", space);
    engine e = {"ode",     ODE_VERSION_STRING, solver,   add_ground, add_wall,  add_box, add_sphere,
                add_body,  add_joint,          step,     contacts,   read_pose, set_sleep, awake,
                add_hull,  -1.0 /* no margin: ODE's convex is the hull itself */};
    int status = bench_main(argc, argv, &e, &c);

    dJointGroupDestroy(c.contacts);
    dSpaceDestroy(c.space); // destroys its geoms
    dWorldDestroy(c.world); // and its bodies and joints
    free(c.bodies);
    for (int i = 0; i < c.convex_count; ++i)
        free(c.convex[i]);
    free(c.convex);
    dCloseODE();
    return status;
}
