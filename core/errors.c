// Status names and the last-error messages (per world and per thread).
#include <stdio.h>
#include <string.h>

#include "world.h"

static _Thread_local char g_thread_error[RB_ERROR_SIZE];
// Failures are numbered in the order they happen, so rb_last_error(world) can tell whether this
// thread's last failure, if it could name no world (a null, malformed or stale id), came after the
// world's own last failure: then it is the answer, not the world's older message.
static _Atomic uint64_t g_error_count;
static _Thread_local uint64_t g_thread_error_seq;
static _Thread_local bool g_thread_error_worldless;

uint64_t rb_error_seq(void) { return g_error_count; }

const char *rb_status_string(rb_status status)
{
    switch (status) {
    case RB_OK: return "ok";
    case RB_ERR_INVALID_ARGUMENT: return "invalid argument";
    case RB_ERR_STALE_ID: return "stale id";
    case RB_ERR_OUT_OF_MEMORY: return "out of memory";
    case RB_ERR_CAPACITY: return "capacity exceeded";
    case RB_ERR_BACKEND_UNAVAILABLE: return "backend unavailable";
    case RB_ERR_BACKEND_FAILED: return "backend failed";
    case RB_ERR_UNSUPPORTED: return "unsupported";
    case RB_ERR_PARSE: return "parse error";
    case RB_ERR_IO: return "i/o error";
    case RB_ERR_NUMERIC: return "non-finite state";
    }
    return "unknown status";
}

rb_status rb_failv(rb_world *w, rb_status status, const char *fmt, va_list args)
{
    vsnprintf(g_thread_error, sizeof g_thread_error, fmt, args);
    g_thread_error_seq = ++g_error_count;
    g_thread_error_worldless = w == NULL;
    if (w) {
        memcpy(w->last_error, g_thread_error, sizeof w->last_error);
        w->last_error_seq = g_thread_error_seq;
    }
    return status;
}

rb_status rb_fail(rb_world *w, rb_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    rb_failv(w, status, fmt, args);
    va_end(args);
    return status;
}

void rb_format(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, size, fmt, args);
    va_end(args);
}

rb_status rb_fail_global(rb_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    rb_failv(NULL, status, fmt, args);
    va_end(args);
    return status;
}

const char *rb_last_error(rb_world_id id)
{
    rb_status unused;
    // look the world up without recording a new error for a null id
    if (id.index1 == 0)
        return g_thread_error;
    char saved[RB_ERROR_SIZE];
    memcpy(saved, g_thread_error, sizeof saved);
    uint64_t saved_seq = g_thread_error_seq;
    bool saved_worldless = g_thread_error_worldless;
    rb_world *w = rb_get_world(id, &unused);
    if (!w) {
        memcpy(g_thread_error, saved, sizeof saved);
        g_thread_error_seq = saved_seq;
        g_thread_error_worldless = saved_worldless;
        return g_thread_error;
    }
    // a call that failed on an id naming no world (null, malformed, stale) after this world's last
    // failure and since its creation: that is the failure the application is asking about
    if (g_thread_error_worldless && g_thread_error_seq > w->last_error_seq && g_thread_error_seq > w->created_seq)
        return g_thread_error;
    return w->last_error;
}

bool rb_finite_vec3(rb_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

bool rb_finite_quat(rb_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

bool rb_check_quat(rb_quat *q)
{
    if (!rb_finite_quat(*q))
        return false;
    float l2 = q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w;
    if (!(l2 > 0.81f && l2 < 1.21f))
        return false;
    float s = 1.0f / sqrtf(l2);
    q->x *= s;
    q->y *= s;
    q->z *= s;
    q->w *= s;
    return true;
}
