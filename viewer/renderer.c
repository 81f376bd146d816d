// OpenGL 3.3 core drawing (see renderer.h).
#include "renderer.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "meshes.h"

// ---- set-up ---------------------------------------------------------------------------------------

static void mesh_instance_attributes(void)
{
    const GLsizei stride = sizeof(mesh_instance);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_instance, position));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_instance, rotation));
    glEnableVertexAttribArray(4);
    glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(mesh_instance, scale));
    glEnableVertexAttribArray(5);
    glVertexAttribPointer(5, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (void *)offsetof(mesh_instance, color));
    for (GLuint a = 2; a <= 5; ++a)
        glVertexAttribDivisor(a, 1);
}

static void upload_mesh(gpu_mesh *g, const mesh *m)
{
    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);
    glGenBuffers(1, &g->vertices);
    glBindBuffer(GL_ARRAY_BUFFER, g->vertices);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(m->vertex_count * sizeof(mesh_vertex)), m->vertices, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, normal));
    glGenBuffers(1, &g->indices);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->indices);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(m->index_count * sizeof(uint16_t)), m->indices, GL_STATIC_DRAW);
    g->index_count = m->index_count;
    glGenBuffers(1, &g->instances);
    glBindBuffer(GL_ARRAY_BUFFER, g->instances);
    mesh_instance_attributes();
    glBindVertexArray(0);
}

// The hull meshes' buffers: filled from the shape cache when it was built again (upload_hulls).
static void make_hull_buffers(gpu_mesh *g)
{
    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);
    glGenBuffers(1, &g->vertices);
    glBindBuffer(GL_ARRAY_BUFFER, g->vertices);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, normal));
    glGenBuffers(1, &g->indices);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->indices);
    glGenBuffers(1, &g->instances);
    glBindBuffer(GL_ARRAY_BUFFER, g->instances);
    mesh_instance_attributes();
    glBindVertexArray(0);
}

static void upload_hulls(renderer *r, const shape_cache *s)
{
    if (r->hull_version == s->mesh_version)
        return;
    const hull_mesh_set *h = &s->hulls;
    glBindVertexArray(r->hulls.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->hulls.vertices);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)h->vertex_count * sizeof(mesh_vertex)), h->vertices,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->hulls.indices);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)h->index_count * sizeof(uint32_t)), h->indices,
                 GL_STATIC_DRAW);
    glBindVertexArray(0);
    r->hull_version = s->mesh_version;
}

// Every convex shape: the instances in mesh order, then a draw per mesh with the instance attributes
// pointed at its run of them (OpenGL 3.3 has no base instance).
static void draw_hulls(renderer *r, const shape_cache *s)
{
    if (s->convex_count <= 0)
        return;
    upload_hulls(r, s);
    glUniform1i(glGetUniformLocation(r->programs[PROGRAM_MESH], "u_edges"), 0);
    glBindVertexArray(r->hulls.vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->hulls.instances);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)s->convex_count * sizeof(mesh_instance)), s->convexes,
                 GL_STREAM_DRAW);
    const GLsizei stride = sizeof(mesh_instance);
    for (int m = 0; m < s->hulls.mesh_count; ++m) {
        int count = s->mesh_instances[m];
        if (count <= 0 || s->hulls.index_counts[m] <= 0)
            continue;
        size_t base = (size_t)s->mesh_first[m] * sizeof(mesh_instance);
        glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, (void *)(base + offsetof(mesh_instance, position)));
        glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, stride, (void *)(base + offsetof(mesh_instance, rotation)));
        glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, stride, (void *)(base + offsetof(mesh_instance, scale)));
        glVertexAttribPointer(5, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (void *)(base + offsetof(mesh_instance, color)));
        glDrawElementsInstanced(GL_TRIANGLES, s->hulls.index_counts[m], GL_UNSIGNED_INT,
                                (void *)((size_t)s->hulls.first_index[m] * sizeof(uint32_t)), count);
    }
}

static void free_mesh(gpu_mesh *g)
{
    if (g->vao)
        glDeleteVertexArrays(1, &g->vao);
    GLuint buffers[3] = {g->vertices, g->indices, g->instances};
    glDeleteBuffers(3, buffers);
    memset(g, 0, sizeof *g);
}

static void free_framebuffers(renderer *r)
{
    GLuint fbos[2] = {r->scene_fbo, r->resolve_fbo};
    GLuint rbs[3] = {r->scene_color, r->scene_depth, r->resolve_color};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(3, rbs);
    r->scene_fbo = r->resolve_fbo = r->scene_color = r->scene_depth = r->resolve_color = 0;
}

static bool make_framebuffers(renderer *r, int width, int height, char *err, size_t err_size)
{
    free_framebuffers(r);
    r->width = width;
    r->height = height;
    glGenFramebuffers(1, &r->resolve_fbo);
    glGenRenderbuffers(1, &r->resolve_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->resolve_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, r->resolve_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->resolve_color);

    glGenRenderbuffers(1, &r->scene_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, r->scene_depth);
    if (r->samples > 0) {
        glGenFramebuffers(1, &r->scene_fbo);
        glGenRenderbuffers(1, &r->scene_color);
        glBindRenderbuffer(GL_RENDERBUFFER, r->scene_color);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_RGBA8, width, height);
        glBindRenderbuffer(GL_RENDERBUFFER, r->scene_depth);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_DEPTH_COMPONENT24, width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, r->scene_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r->scene_color);
    } else {
        // no multisampling: draw straight into the resolve target, with a depth buffer
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
        r->scene_fbo = 0;
        glBindFramebuffer(GL_FRAMEBUFFER, r->resolve_fbo);
    }
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, r->scene_depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    bool ok = status == GL_FRAMEBUFFER_COMPLETE;
    if (ok && r->samples > 0) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->resolve_fbo);
        status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        ok = status == GL_FRAMEBUFFER_COMPLETE;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!ok) {
        snprintf(err, err_size, "cannot create a %d x %d framebuffer with %d samples (status 0x%x)", width, height,
                 r->samples, status);
        free_framebuffers(r);
        return false;
    }
    return true;
}

bool renderer_init(renderer *r, int width, int height, int samples, char *err, size_t err_size)
{
    memset(r, 0, sizeof *r);
    if (!shaders_build(r->programs, err, err_size))
        return false;
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    r->samples = samples < max_samples ? samples : max_samples;

    mesh m;
    mesh_cube(&m);
    upload_mesh(&r->cube, &m);
    mesh_cylinder(&m);
    upload_mesh(&r->cylinder, &m);
    mesh_plane_quad(&m);
    upload_mesh(&r->plane, &m);
    make_hull_buffers(&r->hulls);

    // impostor quad: corners in location 0, one sphere_instance per sphere in locations 1..3
    mesh_impostor_quad(&m);
    float corners[8];
    for (int i = 0; i < 4; ++i) {
        corners[2 * i] = m.vertices[i].position[0];
        corners[2 * i + 1] = m.vertices[i].position[1];
    }
    glGenVertexArrays(1, &r->sphere_vao);
    glBindVertexArray(r->sphere_vao);
    glGenBuffers(1, &r->sphere_corners);
    glBindBuffer(GL_ARRAY_BUFFER, r->sphere_corners);
    glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), (void *)0);
    glGenBuffers(1, &r->sphere_instances);
    glBindBuffer(GL_ARRAY_BUFFER, r->sphere_instances);
    const GLsizei stride = sizeof(sphere_instance);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(sphere_instance, center));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(sphere_instance, radius));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (void *)offsetof(sphere_instance, color));
    for (GLuint a = 1; a <= 3; ++a)
        glVertexAttribDivisor(a, 1);

    glGenVertexArrays(1, &r->line_vao);
    glBindVertexArray(r->line_vao);
    glGenBuffers(1, &r->line_vertices);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vertices);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(line_vertex), (void *)offsetof(line_vertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(line_vertex), (void *)offsetof(line_vertex, color));

    glGenVertexArrays(1, &r->empty_vao);
    glBindVertexArray(0);

    if (!make_framebuffers(r, width, height, err, err_size)) {
        renderer_free(r);
        return false;
    }
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, err_size, "OpenGL error 0x%x while setting up the renderer", e);
        renderer_free(r);
        return false;
    }
    return true;
}

bool renderer_resize(renderer *r, int width, int height, char *err, size_t err_size)
{
    if (width == r->width && height == r->height)
        return true;
    return make_framebuffers(r, width, height, err, err_size);
}

void renderer_free(renderer *r)
{
    free_framebuffers(r);
    free_mesh(&r->cube);
    free_mesh(&r->cylinder);
    free_mesh(&r->plane);
    free_mesh(&r->hulls);
    GLuint vaos[3] = {r->sphere_vao, r->line_vao, r->empty_vao};
    glDeleteVertexArrays(3, vaos);
    GLuint buffers[3] = {r->sphere_corners, r->sphere_instances, r->line_vertices};
    glDeleteBuffers(3, buffers);
    shaders_free(r->programs);
    memset(r, 0, sizeof *r);
}

// ---- drawing --------------------------------------------------------------------------------------

static GLint loc(GLuint program, const char *name) { return glGetUniformLocation(program, name); }

// Uniforms of the lit programs: light, eye and fog.
static void set_lighting(GLuint program, const camera *c)
{
    rb_vec3 light = vm_normalize(vm_vec3(0.55f, 0.75f, 0.25f)); // from above, +x side brighter than +z
    rb_vec3 eye = camera_eye(c);
    float n, f;
    camera_clip_range(c, &n, &f);
    glUniform3f(loc(program, "u_light"), light.x, light.y, light.z);
    glUniform3f(loc(program, "u_eye"), eye.x, eye.y, eye.z);
    // the fog reaches 63% at 12 orbit distances (and never before the far plane's fifth)
    glUniform1f(loc(program, "u_fog_distance"), fmaxf(12.0f * c->distance, 0.2f * f));
}

static vm_mat4 view_proj(const camera *c) { return vm_mat4_mul(camera_projection(c), camera_view(c)); }

void renderer_begin(renderer *r)
{
    glBindFramebuffer(GL_FRAMEBUFFER, r->samples > 0 ? r->scene_fbo : r->resolve_fbo);
    glViewport(0, 0, r->width, r->height);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glClearColor(0.8f, 0.84f, 0.89f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glUseProgram(r->programs[PROGRAM_SKY]);
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

static void draw_meshes(renderer *r, const gpu_mesh *g, const mesh_instance *inst, int count, bool edges)
{
    if (count <= 0)
        return;
    GLuint p = r->programs[PROGRAM_MESH];
    glUniform1i(loc(p, "u_edges"), edges ? 1 : 0);
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->instances);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * sizeof *inst), inst, GL_STREAM_DRAW);
    glDrawElementsInstanced(GL_TRIANGLES, g->index_count, GL_UNSIGNED_SHORT, (void *)0, count);
}

void renderer_draw_shapes(renderer *r, const camera *c, const shape_cache *s)
{
    vm_mat4 vp = view_proj(c), view = camera_view(c), proj = camera_projection(c);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);

    // planes first: the largest, and seen from both sides
    if (s->plane_count > 0) {
        GLuint p = r->programs[PROGRAM_PLANE];
        glUseProgram(p);
        set_lighting(p, c);
        glUniformMatrix4fv(loc(p, "u_view_proj"), 1, GL_FALSE, vp.m);
        glUniform3f(loc(p, "u_focus"), c->target.x, c->target.y, c->target.z);
        glDisable(GL_CULL_FACE);
        // keep the ground behind whatever rests on it where depths tie
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        glBindVertexArray(r->plane.vao);
        glBindBuffer(GL_ARRAY_BUFFER, r->plane.instances);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)s->plane_count * sizeof(mesh_instance)), s->planes,
                     GL_STREAM_DRAW);
        glDrawElementsInstanced(GL_TRIANGLES, r->plane.index_count, GL_UNSIGNED_SHORT, (void *)0, s->plane_count);
        glDisable(GL_POLYGON_OFFSET_FILL);
    }

    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    GLuint p = r->programs[PROGRAM_MESH];
    glUseProgram(p);
    set_lighting(p, c);
    glUniformMatrix4fv(loc(p, "u_view_proj"), 1, GL_FALSE, vp.m);
    draw_meshes(r, &r->cube, s->boxes, s->box_count, true);
    draw_meshes(r, &r->cylinder, s->cylinders, s->cylinder_count, false);
    draw_hulls(r, s);
    glDisable(GL_CULL_FACE);

    if (s->sphere_count > 0) {
        p = r->programs[PROGRAM_SPHERE];
        glUseProgram(p);
        set_lighting(p, c);
        glUniformMatrix4fv(loc(p, "u_view"), 1, GL_FALSE, view.m);
        glUniformMatrix4fv(loc(p, "u_proj"), 1, GL_FALSE, proj.m);
        glBindVertexArray(r->sphere_vao);
        glBindBuffer(GL_ARRAY_BUFFER, r->sphere_instances);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)s->sphere_count * sizeof(sphere_instance)), s->spheres,
                     GL_STREAM_DRAW);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, s->sphere_count);
    }
    glBindVertexArray(0);
}

// Lines and points: contacts are depth-tested (those inside a pile would hide the ones in view), each
// vertex pulled 0.5% of its distance towards the eye so that a point on a visible surface wins the
// depth test against that surface; the picking spring is drawn over everything; joints both ways (below).
static void upload_debug(renderer *r, const line_vertex *v, int count)
{
    glBindVertexArray(r->line_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vertices);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * sizeof *v), v, GL_STREAM_DRAW);
}

// How one draw of debug geometry looks.
typedef struct debug_style {
    float size;       // px: points' size, or the largest when world_size is set
    float min_size;   // px: the smallest when world_size is set
    float world_size; // m: points this large in the world (0: always `size`)
    bool on_top;      // over everything, or hidden by the shapes in front
    bool round;       // points as discs instead of squares
    float brightness; // times the vertices' colours
} debug_style;

// One draw of what upload_debug put in the buffer.
static void draw_debug(renderer *r, const camera *c, int count, GLenum mode, debug_style st)
{
    vm_mat4 vp = view_proj(c);
    rb_vec3 eye = camera_eye(c);
    GLuint p = r->programs[PROGRAM_LINE];
    glUseProgram(p);
    glUniformMatrix4fv(loc(p, "u_view_proj"), 1, GL_FALSE, vp.m);
    glUniform1f(loc(p, "u_point_size"), st.size);
    glUniform1f(loc(p, "u_point_world"), st.world_size);
    glUniform1f(loc(p, "u_point_min"), st.min_size);
    glUniform1f(loc(p, "u_pixels_per_m"), (float)c->height / (2.0f * tanf(0.5f * c->fov_y)));
    glUniform3f(loc(p, "u_eye"), eye.x, eye.y, eye.z);
    glUniform1f(loc(p, "u_pull"), st.on_top ? 0.0f : 0.005f);
    glUniform1f(loc(p, "u_brightness"), st.brightness);
    glUniform1i(loc(p, "u_round"), st.round && mode == GL_POINTS);
    if (st.on_top) {
        glDisable(GL_DEPTH_TEST);
    } else {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        glDepthMask(GL_FALSE);
    }
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(r->line_vao);
    glDrawArrays(mode, 0, count);
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
    glDisable(GL_DEPTH_TEST);
}

void renderer_draw_lines(renderer *r, const camera *c, const line_vertex *v, int count, bool on_top)
{
    count &= ~1;
    if (count <= 0)
        return;
    upload_debug(r, v, count);
    draw_debug(r, c, count, GL_LINES, (debug_style){.size = 1.0f, .on_top = on_top, .brightness = 1.0f});
}

void renderer_draw_points(renderer *r, const camera *c, const line_vertex *v, int count, float size_px, bool on_top)
{
    if (count <= 0)
        return;
    upload_debug(r, v, count);
    draw_debug(r, c, count, GL_POINTS, (debug_style){.size = size_px, .on_top = on_top, .brightness = 1.0f});
}

// Over everything at `hidden` brightness, then depth-tested at full brightness over that: what a
// shape hides stays visible, darker (joints' anchors mostly lie inside the bodies they join).
static void draw_xray(renderer *r, const camera *c, const line_vertex *v, int count, GLenum mode, debug_style st,
                      float hidden)
{
    upload_debug(r, v, count);
    st.on_top = true;
    st.brightness = hidden;
    draw_debug(r, c, count, mode, st);
    st.on_top = false;
    st.brightness = 1.0f;
    draw_debug(r, c, count, mode, st);
}

void renderer_draw_lines_xray(renderer *r, const camera *c, const line_vertex *v, int count, float hidden)
{
    count &= ~1;
    if (count > 0)
        draw_xray(r, c, v, count, GL_LINES, (debug_style){.size = 1.0f}, hidden);
}

void renderer_draw_points_xray(renderer *r, const camera *c, const line_vertex *v, int count, float world_size,
                               float min_px, float max_px, float hidden)
{
    if (count > 0)
        draw_xray(r, c, v, count, GL_POINTS,
                  (debug_style){.size = max_px, .min_size = min_px, .world_size = world_size, .round = true}, hidden);
}

void renderer_finish(renderer *r)
{
    if (r->samples > 0) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, r->scene_fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->resolve_fbo);
        glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->resolve_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void renderer_read_pixels(renderer *r, uint8_t *rgba)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->resolve_fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}
