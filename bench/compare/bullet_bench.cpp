// Bullet driver of the standard scenes (docs/bench-scenes.md); see README.md for the settings.
//   bullet_bench --scene pyramid|stack|pile|pile:S|boxes|chain|ragdolls [--steps N] [--seed S] [--sleep]
// btDiscreteDynamicsWorld, btDbvtBroadphase, btSequentialImpulseConstraintSolver with 10
// iterations (other solver settings Bullet's defaults: split impulse, warm starting), one
// stepSimulation(1/60, 0) per frame, friction 0.6 and restitution 0 on every object, deactivation
// disabled. Contact friction = sqrt(f0 * f1) (as rubble), so 0.6 on both sides gives 0.6. Jointed
// scenes: btPoint2PointConstraint, btHingeConstraint, btConeTwistConstraint, added with collisions
// between the linked bodies disabled; capsule inertia as given (the solid capsule).
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
    btQuaternion r = b->getWorldTransform().getRotation();
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
    c->world.setGravity(btVector3(0, -9.81, 0));
    c->world.getSolverInfo().m_numIterations = 10;

    char version[32];
    snprintf(version, sizeof version, "%d.%02d", btGetVersion() / 100, btGetVersion() % 100);
    engine e = {"bullet",  version,   "sequential_impulse/dbvt", add_ground, add_wall,  add_box, add_sphere,
                add_body,  add_joint, step,                      contacts,   read_pose, set_sleep, awake};
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
