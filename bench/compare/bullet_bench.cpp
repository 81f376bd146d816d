// Bullet driver of the standard scenes (docs/bench-scenes.md); see README.md for the settings.
//   bullet_bench --scene pyramid|stack|pile|pile:S|boxes|rocks|chain|ragdolls [--steps N] [--seed S] [--sleep]
//                [--margin M]
// btDiscreteDynamicsWorld, btDbvtBroadphase, btSequentialImpulseConstraintSolver with 10
// iterations (other solver settings Bullet's defaults: split impulse, warm starting), one
// stepSimulation(1/60, 0) per frame, friction 0.6 and restitution 0 on every object, deactivation
// disabled. Contact friction = sqrt(f0 * f1) (as rubble), so 0.6 on both sides gives 0.6. Jointed
// scenes: btPoint2PointConstraint, btHingeConstraint, btConeTwistConstraint, added with collisions
// between the linked bodies disabled; capsule inertia as given (the solid capsule). rocks: one
// btConvexHullShape per body over the hull's vertices, turned into the hull's principal frame (so that
// the diagonal local inertia is the solid hull's exact tensor), with initializePolyhedralFeatures() and
// collision margin --margin (default 0: no rounding outside the points).
#include <btBulletDynamicsCommon.h>

#include <vector>

#include "bench_common.h"

struct bullet_ctx {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<btCollisionShape *> shapes;
    std::vector<btRigidBody *> dynamic; // creation order
    // per dynamic body: the rotation from Bullet's body frame to the scene's body frame (rocks: the
    // inverse of the hull's principal axes; identity otherwise), so that read_pose reports the scene's
    // orientation
    std::vector<btQuaternion> to_scene;
    double margin = 0.0; // --margin: rocks' collision margin, outside the hull's points
    std::vector<btTypedConstraint *> joints;
    std::vector<btCapsuleShape *> capsules; // one per (radius, length), shared
    bool sleep = false;                  // --sleep
};

// Bullet multiplies the two frictions by default (0.6 * 0.6 = 0.36); bench-scenes.md asks for a
// contact coefficient of 0.6, so combine by the geometric mean, as rubble does.
static btScalar combined_friction(const btCollisionObject *a, const btCollisionObject *b)
{
    return btSqrt(a->getFriction() * b->getFriction());
}

// inertia: principal moments about the local axes; null: Bullet's own calculateLocalInertia
static btRigidBody *add(bullet_ctx *c, btScalar mass, btCollisionShape *shape, const btTransform &t,
                        const vec3 *given_inertia = nullptr, double linear_damping = 0, double angular_damping = 0)
{
    btVector3 inertia(0, 0, 0);
    if (given_inertia)
        inertia = btVector3(given_inertia->x, given_inertia->y, given_inertia->z);
    else if (mass > 0)
        shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = t;
    info.m_linearDamping = linear_damping;   // v <- v (1 - d)^dt before the solve
    info.m_angularDamping = angular_damping;
    info.m_friction = 0.6;
    info.m_restitution = 0.0;
    btRigidBody *b = new btRigidBody(info);
    c->world.addRigidBody(b);
    if (mass > 0) {
        if (!c->sleep)
            b->setActivationState(DISABLE_DEACTIVATION); // no sleeping
        c->dynamic.push_back(b);
        c->to_scene.push_back(btQuaternion::getIdentity());
    }
    return b;
}

static btTransform at(vec3 p, quat q)
{
    return btTransform(btQuaternion(q.x, q.y, q.z, q.w), btVector3(p.x, p.y, p.z)); // Bullet: x, y, z, w
}

static void add_ground(void *ctx)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    c->shapes.push_back(new btStaticPlaneShape(btVector3(0, 1, 0), 0)); // the ground y = 0
    add(c, 0, c->shapes.back(), btTransform::getIdentity());
}

static void add_wall(void *ctx, vec3 p, vec3 h)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    c->shapes.push_back(new btBoxShape(btVector3(h.x, h.y, h.z)));
    add(c, 0, c->shapes.back(), at(p, quat{1, 0, 0, 0}));
}

// one shape per size, shared by the bodies (Bullet's usual practice)
static btCollisionShape *shared(bullet_ctx *c, bool box, double size)
{
    static btCollisionShape *unit_box, *half_box, *sphere;
    btCollisionShape **slot = box ? (size == 0.5 ? &unit_box : &half_box) : &sphere;
    if (!*slot) {
        if (box)
            *slot = new btBoxShape(btVector3(size, size, size));
        else
            *slot = new btSphereShape(size);
        c->shapes.push_back(*slot);
    }
    return *slot;
}

static void add_box(void *ctx, vec3 p, quat q, double half)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    add(c, 1, shared(c, true, half), at(p, q));
}

static void add_sphere(void *ctx, vec3 p, double radius)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    add(c, 1, shared(c, false, radius), at(p, quat{1, 0, 0, 0}));
}

// A body of a jointed scene: btCapsuleShape(r, L) lies along the local y axis, as the scene's
// capsules; the inertia is the scene's (the solid capsule), not calculateLocalInertia's bounding box.
static void add_body(void *ctx, const scn_body *d)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    btCollisionShape *shape = nullptr;
    if (d->shape == SCN_CAPSULE) {
        for (btCapsuleShape *s : c->capsules)
            if (s->getRadius() == btScalar(d->radius) && s->getHalfHeight() == btScalar(d->length / 2))
                shape = s;
        if (!shape) {
            c->capsules.push_back(new btCapsuleShape(d->radius, d->length));
            c->shapes.push_back(c->capsules.back());
            shape = c->capsules.back();
        }
    } else {
        c->shapes.push_back(new btSphereShape(d->radius));
        shape = c->shapes.back();
    }
    add(c, d->mass, shape, at(d->position, d->orientation), &d->inertia, d->linear_damping, d->angular_damping);
}

// A rock. Bullet's rigid body takes a diagonal local inertia about its own axes, so the body frame is
// the hull's principal frame: the points become axes^T p (single precision), the body's orientation is
// q_scene * q_axes, and the local inertia is the principal moments of the solid hull (not
// calculateLocalInertia's bounding box). One shape per body (every rock differs); margin --margin.
static void add_hull(void *ctx, vec3 p, quat q, const rocks_hull *h, const rocks_mass *m)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    btConvexHullShape *shape = new btConvexHullShape();
    for (int v = 0; v < h->vertex_count; ++v) {
        const double *x = h->vertex[v];
        double r[3]; // axes^T x: the vertex in the principal frame
        for (int k = 0; k < 3; ++k)
            r[k] = m->axes[0][k] * x[0] + m->axes[1][k] * x[1] + m->axes[2][k] * x[2];
        shape->addPoint(btVector3(r[0], r[1], r[2]), false);
    }
    shape->recalcLocalAabb();
    shape->setMargin(c->margin);
    shape->initializePolyhedralFeatures();
    c->shapes.push_back(shape);
    const double *a = m->axes_wxyz;
    double qa[4] = {a[0], a[1], a[2], a[3]}, qs[4] = {q.w, q.x, q.y, q.z}, qb[4];
    rocks_qmul(qs, qa, qb); // body frame = scene frame turned by the principal axes
    vec3 inertia = v3(m->principal[0], m->principal[1], m->principal[2]);
    add(c, m->mass, shape, at(p, scn_q(qb[0], qb[1], qb[2], qb[3])), &inertia);
    c->to_scene.back() = btQuaternion(-a[1], -a[2], -a[3], a[0]); // q_axes^-1, Bullet's (x, y, z, w)
}

static void add_joint(void *ctx, const scn_joint *j)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    btRigidBody &a = j->body_a == SCN_WORLD ? btTypedConstraint::getFixedBody() : *c->dynamic[j->body_a];
    btRigidBody &b = *c->dynamic[j->body_b];
    const vec3 &ra = j->local_anchor_a, &rb = j->local_anchor_b;
    btTypedConstraint *t;
    if (j->type == SCN_BALL) {
        t = new btPoint2PointConstraint(a, b, btVector3(ra.x, ra.y, ra.z), btVector3(rb.x, rb.y, rb.z));
    } else if (j->type == SCN_HINGE) {
        auto *h = new btHingeConstraint(a, b, at(ra, j->local_frame_a), at(rb, j->local_frame_b));
        // getHingeAngle() is -theta (A relative to B): setLimit(lo_bt, hi_bt) is theta in [-hi_bt, -lo_bt]
        h->setLimit(-j->hi, -j->lo);
        t = h;
    } else {
        auto *k = new btConeTwistConstraint(a, b, at(ra, j->local_frame_a), at(rb, j->local_frame_b));
        k->setLimit(j->swing, j->swing, j->twist); // swing span 1 (about ẑ), swing span 2 (about ŷ), twist span
        t = k;
    }
    c->world.addConstraint(t, true); // true: the two bodies do not collide
    c->joints.push_back(t);
}

static void step(void *ctx)
{
    ((bullet_ctx *)ctx)->world.stepSimulation(1.0 / 60.0, 0); // one fixed step, no substeps
}

static int contacts(void *ctx)
{
    bullet_ctx *c = (bullet_ctx *)ctx;
    int n = 0;
    for (int i = 0; i < c->dispatcher.getNumManifolds(); ++i)
        n += c->dispatcher.getManifoldByIndexInternal(i)->getNumContacts();
    return n;
}

static void read_pose(void *ctx, int i, vec3 *p, quat *q, vec3 *v)
{
    btRigidBody *b = ((bullet_ctx *)ctx)->dynamic[i];
    const btVector3 &x = b->getWorldTransform().getOrigin(), &u = b->getLinearVelocity();
    btQuaternion r = b->getWorldTransform().getRotation() * ((bullet_ctx *)ctx)->to_scene[i];
    *p = v3(x.x(), x.y(), x.z());
    *q = scn_q(r.w(), r.x(), r.y(), r.z());
    *v = v3(u.x(), u.y(), u.z());
}

static void set_sleep(void *ctx, int on)
{
    ((bullet_ctx *)ctx)->sleep = on != 0; // Bullet's deactivation with its defaults (0.8 m/s, 1 rad/s, 2 s)
}

static int awake(void *ctx)
{
    int n = 0;
    for (btRigidBody *b : ((bullet_ctx *)ctx)->dynamic)
        n += b->isActive();
    return n;
}

int main(int argc, char **argv)
{
    gCalculateCombinedFrictionCallback = combined_friction;
    bullet_ctx *c = new bullet_ctx;
    // --margin M is ours (rocks' collision margin); the rest goes to bench_main
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--margin") == 0 && i + 1 < argc)
            c->margin = atof(argv[++i]);
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    if (!(c->margin >= 0.0)) {
        fprintf(stderr, "bullet_bench: --margin >= 0 expected\n");
        return 2;
    }
    c->world.setGravity(btVector3(0, -9.81, 0));
    c->world.getSolverInfo().m_numIterations = 10;

    char version[32];
    snprintf(version, sizeof version, "%d.%02d", btGetVersion() / 100, btGetVersion() % 100);
    engine e = {"bullet",  version,   "sequential_impulse/dbvt", add_ground, add_wall,  add_box, add_sphere,
                add_body,  add_joint, step,                      contacts,   read_pose, set_sleep, awake,
                add_hull,  c->margin};
    int status = bench_main(argc, argv, &e, c);

    for (btTypedConstraint *t : c->joints) {
        c->world.removeConstraint(t);
        delete t;
    }
    for (int i = c->world.getNumCollisionObjects() - 1; i >= 0; --i) {
        btCollisionObject *o = c->world.getCollisionObjectArray()[i];
        c->world.removeCollisionObject(o);
        delete o;
    }
    for (btCollisionShape *s : c->shapes)
        delete s;
    delete c;
    return status;
}
