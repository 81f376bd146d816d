// Bullet driver of the standard scenes (docs/bench-scenes.md); see README.md for the settings.
//   bullet_bench --scene pyramid|stack|pile|pile:S|boxes [--steps N] [--seed S]
// btDiscreteDynamicsWorld, btDbvtBroadphase, btSequentialImpulseConstraintSolver with 10
// iterations (other solver settings Bullet's defaults: split impulse, warm starting), one
// stepSimulation(1/60, 0) per frame, friction 0.6 and restitution 0 on every object, deactivation
// disabled. Contact friction = sqrt(f0 * f1) (as rubble), so 0.6 on both sides gives 0.6.
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
    bool sleep = false;                  // --sleep
};

// Bullet multiplies the two frictions by default (0.6 * 0.6 = 0.36); bench-scenes.md asks for a
// contact coefficient of 0.6, so combine by the geometric mean, as rubble does.
static btScalar combined_friction(const btCollisionObject *a, const btCollisionObject *b)
{
    return btSqrt(a->getFriction() * b->getFriction());
}

static btRigidBody *add(bullet_ctx *c, btScalar mass, btCollisionShape *shape, const btTransform &t)
{
    btVector3 inertia(0, 0, 0);
    if (mass > 0)
        shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = t;
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

static void read_body(void *ctx, int i, vec3 *p, vec3 *v)
{
    btRigidBody *b = ((bullet_ctx *)ctx)->dynamic[i];
    const btVector3 &x = b->getWorldTransform().getOrigin(), &u = b->getLinearVelocity();
    *p = v3(x.x(), x.y(), x.z());
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
    c->shapes.push_back(new btStaticPlaneShape(btVector3(0, 1, 0), 0)); // the ground y = 0
    add(c, 0, c->shapes.back(), btTransform::getIdentity());

    char version[32];
    snprintf(version, sizeof version, "%d.%02d", btGetVersion() / 100, btGetVersion() % 100);
    engine e = {"bullet", version, "sequential_impulse/dbvt", add_wall, add_box, add_sphere, step, contacts, read_body,
                set_sleep, awake};
    int status = bench_main(argc, argv, &e, c);

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
