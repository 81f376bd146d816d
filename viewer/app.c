// The viewer's loops, input and frame composition (see app.h).
#include "app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screenshot.h"

#define MIN_TIME_SCALE (1.0f / 64.0f)
#define MAX_TIME_SCALE 8.0f
#define PLANE_HALF_SIZE_FACTOR 20.0f // ground quads reach this many orbit distances

static int fail(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "rubble-view: %s\n", msg);
    return VIEW_EXIT_FAIL;
}

static void show_message(app *a, double seconds, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->message_until = simulation_now() + seconds;
}

// ---- start and stop -----------------------------------------------------------------------------------

static bool load_shapes(app *a, char *err, size_t err_size)
{
    shape_cache_free(&a->shapes);
    return shape_cache_build(&a->shapes, a->sim.world, err, err_size);
}

// A scene picked in the panel: a new world, the camera framed on it. Returns 1 when it is shown; 0 when it
// cannot be loaded (the scene shown before is loaded again, `err` says why); -1 when that fails too.
static int load_scene(app *a, const char *scene, char *err, size_t err_size)
{
    char previous[sizeof a->sim.scene];
    memcpy(previous, a->sim.scene, sizeof previous);
    picking_end(&a->pick);
    bool ok = simulation_switch_scene(&a->sim, scene);
    if (!ok) {
        snprintf(err, err_size, "%s", a->sim.error);
        if (!simulation_switch_scene(&a->sim, previous))
            return -1;
    }
    char shape_err[1024];
    if (!load_shapes(a, shape_err, sizeof shape_err)) {
        snprintf(err, err_size, "%s", shape_err);
        return -1;
    }
    a->cam = camera_framing(a->shapes.bounds_lo, a->shapes.bounds_hi, a->gfx.width, a->gfx.height);
    return ok ? 1 : 0;
}

int app_start(app *a, const viewer_options *o)
{
    memset(a, 0, sizeof *a);
    a->options = o;
    a->show_contacts = o->contacts;
    a->show_hud = o->hud;
    a->show_joints = o->joints;
    // the scene first: a bad scene or backend is reported without needing a display
    if (!simulation_start(&a->sim, o))
        return fail("%s", a->sim.error);
    char err[4096];
    bool headless = o->frames > 0;
    if (!window_open(&a->win, "rubble-view", o->width, o->height, headless, headless ? false : o->vsync, err,
                     sizeof err)) {
        simulation_stop(&a->sim);
        return fail("%s", err);
    }
    if (!renderer_init(&a->gfx, a->win.drawable_w, a->win.drawable_h, o->msaa, err, sizeof err) ||
        !(a->ui_started = ui_init(a->win.window, a->win.context, a->win.drawable_w, err, sizeof err)) ||
        !load_shapes(a, err, sizeof err)) {
        app_stop(a);
        return fail("%s", err);
    }
    a->show_panel = o->panel;
    if (o->panel_scene) {
        // as if the scene had been clicked in the panel's list
        char scene[sizeof a->sim.scene], names[2048];
        if (!ui_pick_scene(o->panel_scene, scene, sizeof scene)) {
            ui_scene_names(names, sizeof names);
            app_stop(a);
            return fail("--panel-scene: the panel lists no scene '%s' (it lists %s)", o->panel_scene, names);
        }
        if (load_scene(a, scene, err, sizeof err) != 1) {
            app_stop(a);
            return fail("%s", err);
        }
    }
    a->cam = camera_framing(a->shapes.bounds_lo, a->shapes.bounds_hi, a->win.drawable_w, a->win.drawable_h);
    a->running = true;
    a->last_frame = simulation_now();
    return VIEW_EXIT_OK;
}

void app_stop(app *a)
{
    free(a->contacts);
    free(a->lines);
    free(a->points);
    joint_draw_free(&a->joints);
    shape_cache_free(&a->shapes);
    if (a->win.context) {
        if (a->ui_started)
            ui_shutdown();
        a->ui_started = false;
        renderer_free(&a->gfx);
    }
    window_close(&a->win);
    simulation_stop(&a->sim);
    a->contacts = NULL;
    a->lines = a->points = NULL;
}

// ---- debug geometry ---------------------------------------------------------------------------------


static void set_vertex(line_vertex *v, rb_vec3 p, uint8_t r, uint8_t g, uint8_t b)
{
    v->position[0] = p.x, v->position[1] = p.y, v->position[2] = p.z;
    v->color[0] = r, v->color[1] = g, v->color[2] = b, v->color[3] = 255;
}

// Contact points (red) and normals (yellow, from A to B), hidden behind the shapes in front of them;
// the joints (joint_draw.h) over the shapes, darker where a shape hides them; then the picking spring
// (white) over everything.
static void draw_debug(app *a)
{
    float pixel = a->win.drawable_w >= 1600 ? 2.0f : 1.0f;
    float point_size = 4.0f * pixel;
    a->contact_count = 0;
    if (a->show_contacts) {
        int count = 0, nl = 0, np = 0;
        if (rb_world_get_contact_count(a->sim.world, &count) == RB_OK && count > 0 &&
            view_reserve((void **)&a->contacts, &a->contact_capacity, count, sizeof(rb_contact)) &&
            rb_world_get_contacts(a->sim.world, 0, count, a->contacts) == RB_OK)
            a->contact_count = count;
        float length = 0.04f * a->cam.distance;
        if (view_reserve((void **)&a->lines, &a->line_capacity, 2 * a->contact_count, sizeof(line_vertex)) &&
            view_reserve((void **)&a->points, &a->point_capacity, a->contact_count, sizeof(line_vertex))) {
            for (int i = 0; i < a->contact_count; ++i) {
                const rb_contact *c = &a->contacts[i];
                set_vertex(&a->points[np++], c->point, 230, 40, 30);
                set_vertex(&a->lines[nl++], c->point, 255, 220, 40);
                set_vertex(&a->lines[nl++], vm_mad(c->point, length, c->normal), 255, 220, 40);
            }
        }
        renderer_draw_lines(&a->gfx, &a->cam, a->lines, nl, false);
        renderer_draw_points(&a->gfx, &a->cam, a->points, np, point_size, false);
    }
    joint_draw *j = &a->joints;
    if (a->show_joints && joint_draw_update(j, a->sim.world, &a->shapes, &a->cam)) {
        renderer_draw_lines_xray(&a->gfx, &a->cam, j->lines, j->line_count, JOINT_HIDDEN_BRIGHTNESS);
        // B's disc inside A's: a ring with a dot while the joint holds, two dots when it is stretched
        renderer_draw_points_xray(&a->gfx, &a->cam, j->anchors_a, j->anchor_count, j->marker_size, 4.0f * pixel,
                                  9.0f * pixel, JOINT_HIDDEN_BRIGHTNESS);
        renderer_draw_points_xray(&a->gfx, &a->cam, j->anchors_b, j->anchor_count, 0.5f * j->marker_size,
                                  2.0f * pixel, 4.5f * pixel, JOINT_HIDDEN_BRIGHTNESS);
    }
    rb_vec3 anchor;
    if (a->pick.active && picking_anchor(&a->pick, &anchor) &&
        view_reserve((void **)&a->lines, &a->line_capacity, 2, sizeof(line_vertex)) &&
        view_reserve((void **)&a->points, &a->point_capacity, 2, sizeof(line_vertex))) {
        set_vertex(&a->lines[0], anchor, 255, 255, 255);
        set_vertex(&a->lines[1], a->pick.target, 255, 255, 255);
        a->points[0] = a->lines[0];
        a->points[1] = a->lines[1];
        renderer_draw_lines(&a->gfx, &a->cam, a->lines, 2, true);
        renderer_draw_points(&a->gfx, &a->cam, a->points, 2, point_size, true);
    }
}

// ---- one frame ------------------------------------------------------------------------------------------

// The heads-up line names a scene file by its base name: a long path would push the backend off screen.
static const char *scene_label(const char *scene)
{
    const char *slash = strrchr(scene, '/');
    return slash && slash[1] ? slash + 1 : scene;
}

static bool draw_frame(app *a)
{
    char err[1024];
    if (!shape_cache_update(&a->shapes, a->sim.world, PLANE_HALF_SIZE_FACTOR * a->cam.distance + 100.0f, err,
                            sizeof err)) {
        fail("%s", err);
        return false;
    }
    renderer_begin(&a->gfx);
    renderer_draw_shapes(&a->gfx, &a->cam, &a->shapes);
    draw_debug(a);
    int joints = 0;
    rb_world_get_joint_count(a->sim.world, &joints);
    // ImGui measures some things on the frame before it uses them (the legend's columns, the scroll to
    // the current scene): the first frame is laid out twice, so that a one-frame screenshot is complete
    for (int pass = a->ui_laid_out ? 1 : 0; pass < 2; ++pass) {
        ui_begin_frame();
        if (a->show_hud) {
            rb_counters counters;
            memset(&counters, 0, sizeof counters);
            rb_world_get_counters(a->sim.world, &counters);
            hud_status st = {
                .scene = scene_label(a->sim.scene),
                .info = a->sim.info,
                .bodies = counters.bodies,
                .joints = joints,
                .awake_bodies = a->shapes.awake_bodies, // as tinted (the counter is 0 before the first step)
                .contacts = counters.contacts,
                .step_ms = a->sim.step_ms,
                .phases = a->sim.phases,
                .fps = a->frame_seconds > 0.0 ? 1.0 / a->frame_seconds : 0.0,
                .time_scale = a->sim.time_scale,
                .paused = a->sim.paused,
                .picking = a->pick.active,
                .show_contacts = a->show_contacts,
                .message = simulation_now() < a->message_until ? a->message : NULL,
            };
            ui_draw_status(&st);
        }
        if (a->show_help)
            ui_draw_help();
        if (a->show_panel) {
            panel_view v = {
                .world = a->sim.world,
                .scene = a->sim.scene,
                .history = a->sim.history,
                .history_count = a->sim.history_count,
                .history_next = a->sim.history_next,
                .history_capacity = SIMULATION_HISTORY,
                .show_joints = &a->show_joints,
                .show_contacts = &a->show_contacts,
                .joints = joints,
                .joints_off = a->show_joints ? a->joints.inactive : -1,
            };
            char scene[sizeof a->sim.scene];
            bool picked = ui_draw_panel(&v, &a->show_panel, scene, sizeof scene);
            if (pass == 1 && picked)
                snprintf(a->picked_scene, sizeof a->picked_scene, "%s", scene); // loaded after this frame
        }
        ui_end_frame(pass == 1);
    }
    a->ui_laid_out = true;
    renderer_finish(&a->gfx);
    return true;
}

static bool write_screenshot(app *a, const char *path, char *err, size_t err_size)
{
    size_t bytes = (size_t)a->gfx.width * (size_t)a->gfx.height * 4;
    uint8_t *pixels = malloc(bytes);
    if (!pixels) {
        snprintf(err, err_size, "out of memory for a %d x %d screenshot", a->gfx.width, a->gfx.height);
        return false;
    }
    renderer_read_pixels(&a->gfx, pixels);
    bool ok = screenshot_write_png(path, pixels, a->gfx.width, a->gfx.height, err, err_size);
    free(pixels);
    return ok;
}

static void picking_hook(void *context, float dt)
{
    picking_apply((pick_state *)context, dt);
}

static bool reset(app *a)
{
    char err[1024];
    picking_end(&a->pick);
    if (!simulation_reset(&a->sim) || !load_shapes(a, err, sizeof err)) {
        fail("%s", a->sim.error[0] ? a->sim.error : err);
        return false;
    }
    return true;
}

// `s`: the frame just drawn, to the first free rubble-view-NNN.png in the current directory.
static void take_screenshot(app *a)
{
    char name[64], err[1024];
    a->screenshot_pending = false;
    screenshot_next_name(name, sizeof name);
    if (write_screenshot(a, name, err, sizeof err)) {
        printf("rubble-view: wrote %s (%d x %d)\n", name, a->gfx.width, a->gfx.height);
        fflush(stdout); // a log or a script waiting for the file sees it now, not at exit
        show_message(a, 3.0, "screenshot: %s", name);
    } else {
        fprintf(stderr, "rubble-view: screenshot failed: %s\n", err);
        show_message(a, 5.0, "screenshot failed: %s", err);
    }
}

// ---- input --------------------------------------------------------------------------------------------

static void to_drawable(const app *a, int x, int y, float *px, float *py)
{
    // mouse events come in window units; the drawable may have more pixels (HiDPI)
    *px = (float)x * (float)a->win.drawable_w / (float)(a->win.window_w > 0 ? a->win.window_w : 1);
    *py = (float)y * (float)a->win.drawable_h / (float)(a->win.window_h > 0 ? a->win.window_h : 1);
}

static void on_key(app *a, SDL_Keycode key)
{
    simulation *s = &a->sim;
    switch (key) {
    case SDLK_ESCAPE:
    case SDLK_q:
        a->running = false;
        break;
    case SDLK_SPACE:
        s->paused = !s->paused;
        break;
    case SDLK_n:
        s->paused = true;
        s->pending_steps++;
        break;
    case SDLK_r:
        if (reset(a)) {
            show_message(a, 2.0, "reset");
        } else {
            a->exit_status = VIEW_EXIT_FAIL;
            a->running = false;
        }
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        s->time_scale = fminf(s->time_scale * 2.0f, MAX_TIME_SCALE);
        show_message(a, 1.5, "time scale x%g", (double)s->time_scale);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        s->time_scale = fmaxf(s->time_scale * 0.5f, MIN_TIME_SCALE);
        show_message(a, 1.5, "time scale x%g", (double)s->time_scale);
        break;
    case SDLK_c:
        a->show_contacts = !a->show_contacts;
        break;
    case SDLK_j:
        a->show_joints = !a->show_joints;
        break;
    case SDLK_h:
        a->show_help = !a->show_help;
        break;
    case SDLK_F1:
    case SDLK_TAB:
        a->show_panel = !a->show_panel;
        break;
    case SDLK_f:
        a->cam = camera_framing(a->shapes.bounds_lo, a->shapes.bounds_hi, a->gfx.width, a->gfx.height);
        break;
    case SDLK_s:
        // taken once the next frame is drawn, so that it shows what the keys before it changed
        a->screenshot_pending = true;
        break;
    default:
        break;
    }
}

static void on_event(app *a, const SDL_Event *e)
{
    float px, py;
    // a click or the wheel over the panel, typing into one of its fields: the panel's, not the scene's
    if (ui_handle_event(e))
        return;
    switch (e->type) {
    case SDL_QUIT:
        a->running = false;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e->window.event == SDL_WINDOWEVENT_RESIZED) {
            char err[512];
            window_update_size(&a->win);
            if (!renderer_resize(&a->gfx, a->win.drawable_w, a->win.drawable_h, err, sizeof err)) {
                a->exit_status = fail("%s", err);
                a->running = false;
            }
            a->cam.width = a->gfx.width;
            a->cam.height = a->gfx.height;
        }
        break;
    case SDL_KEYDOWN:
        on_key(a, e->key.keysym.sym);
        break;
    case SDL_MOUSEBUTTONDOWN:
        to_drawable(a, e->button.x, e->button.y, &px, &py);
        a->mouse_x = px, a->mouse_y = py;
        if (e->button.button == SDL_BUTTON_LEFT && !(SDL_GetModState() & KMOD_SHIFT)) {
            if (!picking_begin(&a->pick, a->sim.world, &a->cam, px, py))
                a->orbiting = true;
        } else if (e->button.button == SDL_BUTTON_LEFT || e->button.button == SDL_BUTTON_RIGHT ||
                   e->button.button == SDL_BUTTON_MIDDLE) {
            a->panning = true;
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) {
            picking_end(&a->pick);
            a->orbiting = false;
        }
        if (e->button.button != SDL_BUTTON_LEFT || a->panning)
            a->panning = false;
        break;
    case SDL_MOUSEMOTION:
        to_drawable(a, e->motion.x, e->motion.y, &px, &py);
        if (a->pick.active)
            picking_move(&a->pick, &a->cam, px, py);
        else if (a->orbiting)
            camera_orbit(&a->cam, px - a->mouse_x, py - a->mouse_y);
        else if (a->panning)
            camera_pan(&a->cam, px - a->mouse_x, py - a->mouse_y);
        a->mouse_x = px, a->mouse_y = py;
        break;
    case SDL_MOUSEWHEEL:
        camera_zoom(&a->cam, (float)(e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y));
        break;
    default:
        break;
    }
}

// The frame time, smoothed over ~10 frames. (Smoothing the rate instead would let one fast frame,
// such as the first, show hundreds of frames per second for a minute when frames take a second.)
static void count_frame(app *a, double elapsed)
{
    a->frame_seconds = a->frame_seconds > 0.0 ? 0.9 * a->frame_seconds + 0.1 * elapsed : elapsed;
}

// ---- loops --------------------------------------------------------------------------------------------

// Shows the frame and waits until it is drawn. Without the wait a software renderer (Mesa's llvmpipe)
// would still be rasterising on every core while the next step runs, and the solver's threads, which
// meet at barriers, would wait on each other for whole scheduler slices (a step took 100 times longer).
// On a GPU the wait costs little: the step dominates a frame of a large scene.
static void present(app *a)
{
    SDL_GL_SwapWindow(a->win.window);
    glFinish();
}

int app_run_interactive(app *a)
{
    printf("rubble-view: %s on %s (%s); press h for help, F1 for the panel\n", a->sim.scene,
           a->sim.info.backend, a->win.gl_description);
    fflush(stdout);
    a->last_frame = simulation_now();
    for (long frame = 0; a->running; ++frame) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            on_event(a, &e);
        if (!a->running)
            break;
        double now = simulation_now(), elapsed = now - a->last_frame;
        a->last_frame = now;
        if (frame > 0 && elapsed > 0.0) // the first interval is no frame at all
            count_frame(a, elapsed);
        if (simulation_advance(&a->sim, elapsed, picking_hook, &a->pick) < 0) {
            // keep the window open on the last good state, with the reason on screen
            fprintf(stderr, "rubble-view: %s\n", a->sim.error);
            show_message(a, 1e9, "%s (paused)", a->sim.error);
            a->sim.paused = true;
        }
        // keep the spring's target under the mouse while the body moves or the camera turns
        if (a->pick.active)
            picking_move(&a->pick, &a->cam, a->mouse_x, a->mouse_y);
        if (!draw_frame(a))
            return VIEW_EXIT_FAIL;
        if (a->screenshot_pending)
            take_screenshot(a);
        present(a);
        if (a->picked_scene[0]) {
            char err[2048];
            int loaded = load_scene(a, a->picked_scene, err, sizeof err);
            if (loaded < 0)
                return fail("%s", err);
            if (loaded == 0) {
                fprintf(stderr, "rubble-view: %s\n", err);
                show_message(a, 8.0, "%s", err);
            } else {
                rb_counters counters;
                memset(&counters, 0, sizeof counters);
                rb_world_get_counters(a->sim.world, &counters);
                printf("rubble-view: picked %s in the panel: %d bodies\n", a->sim.scene, counters.bodies);
                fflush(stdout);
                show_message(a, 2.0, "scene %s", scene_label(a->sim.scene));
            }
            a->picked_scene[0] = '\0';
        }
    }
    return a->exit_status;
}

int app_run_headless(app *a)
{
    const viewer_options *o = a->options;
    double start = simulation_now(), stepping = 0.0;
    int steps = a->sim.paused ? 0 : o->steps_per_frame;
    for (int frame = 0; frame < o->frames; ++frame) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            if (e.type == SDL_QUIT)
                return fail("the window was closed after %d of %d frames", frame, o->frames);
        double t0 = simulation_now();
        if (simulation_step(&a->sim, steps, NULL, NULL) < 0)
            return fail("%s", a->sim.error);
        stepping += simulation_now() - t0;
        double elapsed = simulation_now() - a->last_frame;
        a->last_frame = simulation_now();
        if (frame > 0 && elapsed > 0.0)
            count_frame(a, elapsed);
        if (!draw_frame(a))
            return VIEW_EXIT_FAIL;
        present(a);
    }
    double total = simulation_now() - start;
    char err[1024];
    if (o->screenshot && !write_screenshot(a, o->screenshot, err, sizeof err))
        return fail("%s", err);
    rb_counters counters;
    memset(&counters, 0, sizeof counters);
    rb_world_get_counters(a->sim.world, &counters);
    double render = total - stepping;
    printf("rubble-view: %s, %d bodies on %s: %d frames in %.2f s (%.1f frames/s); stepping %.1f ms/frame, "
           "drawing %.1f ms/frame (%s)\n",
           a->sim.scene, counters.bodies, a->sim.info.backend, o->frames, total, o->frames / total,
           1e3 * stepping / o->frames, 1e3 * render / o->frames, a->win.gl_description);
    if (o->screenshot)
        printf("rubble-view: wrote %s (%d x %d)\n", o->screenshot, a->gfx.width, a->gfx.height);
    return VIEW_EXIT_OK;
}
