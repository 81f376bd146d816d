// rubble-view's Dear ImGui layer (see panel.h). The only C++ in the viewer: everything it needs from
// the rest comes through panel.h, and it touches the world only through the public API.
#include "panel.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

namespace {

struct scene_entry {
    std::string label; ///< what the list shows
    std::string scene; ///< what is loaded: a built-in name or a file's path
    std::string file;  ///< the file's name, empty for a built-in scene
};

struct ui_state {
    bool started = false;
    float scale = 1.0f; ///< sizes relative to a 1280-pixel-wide frame (16-pixel text)
    std::vector<scene_entry> scenes;
    ImFont *help_font = nullptr; ///< the help's larger text (null: the default font)
    std::string scene_dir; ///< where the .yaml files were found, empty if nowhere
    std::string status;    ///< the result of the last setting changed in the panel
    bool status_failed = false;
    ImVec2 mouse;             ///< the mouse in window coordinates, from the last event that had it
    bool mouse_known = false;
};

ui_state ui;

// The heads-up text's colours (hud.h's tones); 240 is the brightest, so that the picking spring's pure
// white stays apart from any text (tests/test_viewer.sh).
const ImVec4 TEXT(240 / 255.0f, 240 / 255.0f, 240 / 255.0f, 1.0f);
const ImVec4 DIM(185 / 255.0f, 195 / 255.0f, 210 / 255.0f, 1.0f);
const ImVec4 ACCENT(1.0f, 200 / 255.0f, 90 / 255.0f, 1.0f);
const ImVec4 FAILED(1.0f, 120 / 255.0f, 100 / 255.0f, 1.0f);
// The panel's background, opaque: RGB (28, 32, 42) exactly (the tests look for it).
const ImVec4 PANEL_BG(28 / 255.0f, 32 / 255.0f, 42 / 255.0f, 1.0f);
const float HUD_BG_ALPHA = 0.67f; // the status lines' dark backing, as translucent as before (the help: 0.85)
const ImVec4 HUD_BG(18 / 255.0f, 22 / 255.0f, 30 / 255.0f, 1.0f);
// the status lines, the hint and the help: placed and sized here, never moved, focused or clicked
const ImGuiWindowFlags FIXED = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                               ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                               ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus;

const ImVec4 &tone_colour(hud_tone t)
{
    return t == HUD_TONE_ACCENT ? ACCENT : t == HUD_TONE_DIM ? DIM : TEXT;
}

bool is_dir(const std::string &path)
{
    DIR *d = opendir(path.c_str());
    if (!d)
        return false;
    closedir(d);
    return true;
}

// The scene directory, as the tests and the command line find it: $RUBBLE_SCENE_DIR, else data/scenes
// of the tree the executable was built in (build/viewer/ -> data/scenes) or installed to
// (bin/ -> share/rubble/scenes), else the source tree this viewer was built from.
std::string find_scene_dir()
{
    const char *env = getenv("RUBBLE_SCENE_DIR");
    if (env && *env)
        return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        std::string dir(exe);
        dir = dir.substr(0, dir.rfind('/'));
        for (const char *rel : {"/../../data/scenes", "/../data/scenes", "/../share/rubble/scenes"})
            if (is_dir(dir + rel))
                return dir + rel;
    }
#ifdef RUBBLE_VIEW_SOURCE_SCENE_DIR
    if (is_dir(RUBBLE_VIEW_SOURCE_SCENE_DIR))
        return RUBBLE_VIEW_SOURCE_SCENE_DIR;
#endif
    return is_dir("data/scenes") ? "data/scenes" : "";
}

void list_scenes()
{
    ui.scenes.clear();
    for (const char *name : {"pyramid", "stack", "pile", "boxes", "chain", "ragdolls"})
        ui.scenes.push_back({std::string(name) + "  (built-in)", name, ""});
    ui.scene_dir = find_scene_dir();
    char real[PATH_MAX];
    if (!ui.scene_dir.empty() && realpath(ui.scene_dir.c_str(), real))
        ui.scene_dir = real; // without the "/../.." that finding it left in
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) && ui.scene_dir.compare(0, strlen(cwd) + 1, std::string(cwd) + "/") == 0)
        ui.scene_dir = ui.scene_dir.substr(strlen(cwd) + 1); // shown relative to where the viewer runs
    if (ui.scene_dir.empty())
        return;
    std::vector<std::string> files;
    if (DIR *d = opendir(ui.scene_dir.c_str())) {
        while (const struct dirent *e = readdir(d)) {
            std::string f(e->d_name);
            if (f.size() > 5 && f.compare(f.size() - 5, 5, ".yaml") == 0)
                files.push_back(f);
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end()); // the same order on every file system
    for (const std::string &f : files)
        ui.scenes.push_back({f, ui.scene_dir + "/" + f, f});
}

std::string base_name(const std::string &path)
{
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether list entry `e` is the scene being shown.
bool is_current(const scene_entry &e, const char *scene)
{
    if (!scene)
        return false;
    if (e.file.empty())
        return e.scene == scene;
    return strchr(scene, '/') ? base_name(scene) == e.file : e.file == scene;
}

// Clicking a scene and ui_pick_scene both end here.
bool pick(size_t index, char *scene, size_t scene_size)
{
    if (index >= ui.scenes.size())
        return false;
    snprintf(scene, scene_size, "%s", ui.scenes[index].scene.c_str());
    ui.status.clear();
    return true;
}

// ---- the panel's sections ------------------------------------------------------------------------

bool draw_scene_picker(const panel_view *v, char *scene, size_t scene_size)
{
    bool picked = false;
    ImGui::TextColored(DIM, "Picking a scene builds a new world.");
    float rows = (float)std::min<size_t>(ui.scenes.size(), 6);
    if (ImGui::BeginListBox("##scenes", ImVec2(-FLT_MIN, rows * ImGui::GetTextLineHeightWithSpacing() + 6.0f))) {
        for (size_t i = 0; i < ui.scenes.size(); ++i) {
            bool current = is_current(ui.scenes[i], v->scene);
            if (ImGui::Selectable(ui.scenes[i].label.c_str(), current) && !current)
                picked = pick(i, scene, scene_size);
            if (current && ImGui::IsWindowAppearing())
                ImGui::SetScrollHereY();
        }
        ImGui::EndListBox();
    }
    if (ui.scene_dir.empty())
        ImGui::TextColored(DIM, "no scene directory (set RUBBLE_SCENE_DIR)");
    else
        ImGui::TextColored(DIM, "files from %s", ui.scene_dir.c_str());
    return picked;
}

void report(rb_world_id world, rb_status st, const char *what)
{
    ui.status_failed = st != RB_OK;
    if (st == RB_OK) {
        ui.status = what;
    } else {
        const char *msg = rb_last_error(world);
        ui.status = std::string(what) + " failed: " + (msg && *msg ? msg : rb_status_string(st));
    }
}

// What is drawn over the shapes: the same switches as `j` and `c`.
void draw_show(const panel_view *v)
{
    ImGui::Checkbox("Joints", v->show_joints);
    ImGui::SameLine();
    if (v->joints_off > 0)
        ImGui::TextColored(DIM, "%d (%d off or broken)", v->joints, v->joints_off);
    else
        ImGui::TextColored(DIM, "%d", v->joints);
    ImGui::Checkbox("Contacts", v->show_contacts);
}

// New gravity, and every body woken to feel it: sleeping switched off wakes them all (rubble.h), then
// back on if it was.
void set_gravity(const panel_view *v, rb_vec3 g, bool sleep)
{
    rb_status st = rb_world_set_gravity(v->world, g);
    if (st == RB_OK && sleep && (st = rb_world_enable_sleep(v->world, false)) == RB_OK)
        st = rb_world_enable_sleep(v->world, true);
    report(v->world, st, "gravity (every body woken)");
}

void draw_settings(const panel_view *v)
{
    rb_world_def def;
    if (rb_world_get_def(v->world, &def) != RB_OK)
        return;
    ImGui::TextColored(DIM, "Applied at once; r reloads the scene's own.");

    static const rb_solver solvers[] = {RB_SOLVER_SOFT, RB_SOLVER_BATCHED, RB_SOLVER_SPLIT, RB_SOLVER_SEQUENTIAL};
    if (ImGui::BeginCombo("solver", rb_solver_name(def.solver))) {
        for (rb_solver s : solvers) {
            bool current = s == def.solver;
            if (ImGui::Selectable(rb_solver_name(s), current) && !current) {
                char what[64];
                snprintf(what, sizeof what, "solver %s", rb_solver_name(s));
                report(v->world, rb_world_set_solver(v->world, s), what);
            }
        }
        ImGui::EndCombo();
    }
    int iterations = def.iterations;
    if (ImGui::SliderInt("iterations", &iterations, 1, 50) && iterations != def.iterations)
        report(v->world, rb_world_set_iterations(v->world, iterations, def.position_iterations), "iterations");
    if (def.solver == RB_SOLVER_SOFT || def.solver == RB_SOLVER_SEQUENTIAL)
        ImGui::TextColored(DIM, "  (velocity iterations: batched and split solvers)");
    int substeps = def.substeps;
    if (ImGui::SliderInt("substeps", &substeps, 0, 16, substeps == 0 ? "solver's choice" : "%d") &&
        substeps != def.substeps)
        report(v->world, rb_world_set_time_step(v->world, def.time_step, substeps), "substeps");
    bool sleep = def.enable_sleep;
    if (ImGui::Checkbox("sleeping", &sleep))
        report(v->world, rb_world_enable_sleep(v->world, sleep), sleep ? "sleeping on" : "sleeping off (all awake)");
    float g[3] = {def.gravity.x, def.gravity.y, def.gravity.z};
    if (ImGui::DragFloat3("gravity", g, 0.05f, -50.0f, 50.0f, "%.2f")) {
        rb_vec3 gv = {g[0], g[1], g[2]};
        set_gravity(v, gv, def.enable_sleep);
    }
    if (ImGui::Button("g = (0, -9.81, 0)")) {
        rb_vec3 gv = {0.0f, -9.81f, 0.0f};
        set_gravity(v, gv, def.enable_sleep);
    }
    ImGui::SameLine();
    ImGui::TextColored(DIM, "step %.4g s", (double)def.time_step);
    if (!ui.status.empty())
        ImGui::TextColored(ui.status_failed ? FAILED : DIM, "%s", ui.status.c_str());
}

// The step timings: a histogram of the whole step, then one line per phase in one graph, on one scale,
// so that the phases compare. The scale follows the slower steps but not a rare spike (the first step
// builds its pipelines): a bar or line above it is cut at the top.
struct phase_field {
    const char *name;
    float rb_profile::*ms;
    ImU32 colour;
};
const phase_field phases[] = {
    {"integrate", &rb_profile::integrate, IM_COL32(120, 200, 255, 255)},
    {"bounds", &rb_profile::bounds, IM_COL32(160, 160, 255, 255)},
    {"broad", &rb_profile::broad, IM_COL32(90, 220, 160, 255)},
    {"narrow", &rb_profile::narrow, IM_COL32(200, 230, 90, 255)},
    {"batches", &rb_profile::batches, IM_COL32(255, 210, 80, 255)},
    {"correct", &rb_profile::correct, IM_COL32(255, 150, 60, 255)},
    {"solve", &rb_profile::solve, IM_COL32(255, 95, 95, 255)},
    {"sleep", &rb_profile::sleep, IM_COL32(220, 130, 230, 255)},
    {"transfer", &rb_profile::transfer, IM_COL32(170, 170, 170, 255)},
};

struct plot_source {
    const panel_view *v;
    float rb_profile::*ms;
};

// Step i of the ring, 0 the oldest.
const rb_profile &history_at(const panel_view *v, int i)
{
    int oldest = v->history_count < v->history_capacity ? 0 : v->history_next;
    return v->history[(oldest + i) % v->history_capacity];
}

float plot_value(void *data, int i)
{
    const plot_source *p = (const plot_source *)data;
    return history_at(p->v, i).*(p->ms);
}

// A scale for `values`: the 95th percentile with a quarter to spare, at least the median's double.
float robust_top(std::vector<float> values)
{
    if (values.empty())
        return 1.0f;
    std::sort(values.begin(), values.end());
    float p95 = values[(values.size() - 1) * 95 / 100], median = values[(values.size() - 1) / 2];
    float top = std::max(1.25f * p95, 2.0f * median);
    return top > 0.0f ? top : 1.0f;
}

void draw_timings(const panel_view *v)
{
    const int n = v->history_count;
    if (n == 0) {
        ImGui::TextColored(DIM, "no steps yet");
        return;
    }
    std::vector<float> values;
    for (int i = 0; i < n; ++i)
        values.push_back(history_at(v, i).step);
    float top = robust_top(values);
    plot_source step = {v, &rb_profile::step};
    char overlay[64];
    snprintf(overlay, sizeof overlay, "step %.2f ms", (double)values.back());
    ImGui::TextColored(DIM, "ms per step, the last %d steps (0 to %.2f)", n, (double)top);
    float width = ImGui::GetContentRegionAvail().x;
    ImGui::PlotHistogram("##step", plot_value, &step, n, 0, overlay, 0.0f, top, ImVec2(width, 36.0f * ui.scale));

    values.clear();
    for (int i = 0; i < n; ++i)
        for (const phase_field &f : phases)
            values.push_back(history_at(v, i).*(f.ms));
    float phase_top = robust_top(values);
    ImGui::TextColored(DIM, "per phase, ms (0 to %.2f)", (double)phase_top);
    ImVec2 size(width, 80.0f * ui.scale), p0 = ImGui::GetCursorScreenPos();
    ImVec2 p1(p0.x + size.x, p0.y + size.y);
    ImDrawList *draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
    draw->PushClipRect(p0, p1, true);
    std::vector<ImVec2> points((size_t)n);
    float dx = n > 1 ? size.x / (float)(n - 1) : 0.0f;
    for (const phase_field &f : phases) {
        for (int i = 0; i < n; ++i) {
            float y = std::min(history_at(v, i).*(f.ms) / phase_top, 1.02f);
            points[(size_t)i] = ImVec2(p0.x + (float)i * dx, p1.y - 1.0f - y * (size.y - 2.0f));
        }
        if (n > 1)
            draw->AddPolyline(points.data(), n, f.colour, 0, 1.5f * ui.scale);
    }
    draw->PopClipRect();
    ImGui::Dummy(size);
    // the legend, with the last step's time of each phase
    const rb_profile &last = history_at(v, n - 1);
    if (ImGui::BeginTable("##legend", 3)) {
        for (const phase_field &f : phases) {
            ImGui::TableNextColumn();
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.colour), "%s %.2f", f.name, (double)(last.*(f.ms)));
        }
        ImGui::EndTable();
    }
}

// DejaVu Sans at the text's size, and larger for the help; ImGui's built-in font when it is missing.
void load_fonts(float pixels)
{
    ImGuiIO &io = ImGui::GetIO();
    const char *path = getenv("RUBBLE_VIEW_FONT");
    path = path && *path ? path : UI_FONT_PATH;
    if (access(path, R_OK) == 0 && io.Fonts->AddFontFromFileTTF(path, pixels)) {
        ui.help_font = io.Fonts->AddFontFromFileTTF(path, 1.25f * pixels);
        return;
    }
    printf("rubble-view: note: no font at %s (Debian: apt-get install fonts-dejavu-core); using Dear ImGui's "
           "built-in font\n",
           path);
    fflush(stdout);
    ImFontConfig config;
    config.SizePixels = 13.0f * std::max(1.0f, std::floor(pixels / 13.0f)); // it is a bitmap font: whole multiples
    io.Fonts->AddFontDefault(&config);
}

} // namespace

extern "C" {

bool ui_init(SDL_Window *window, SDL_GLContext context, int width, char *err, size_t err_size)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini in the current directory: every start looks the same
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGuiStyle &style = ImGui::GetStyle();
    // 16-pixel text from a 900-pixel-wide frame up, 24 on very large frames, as the old bitmap font
    ui.scale = width >= 2400 ? 1.5f : (width >= 900 ? 1.0f : 0.8f);
    style.ScaleAllSizes(ui.scale);
    style.Colors[ImGuiCol_Text] = TEXT;
    style.Colors[ImGuiCol_WindowBg] = PANEL_BG;
    style.WindowRounding = 0.0f;
    load_fonts(16.0f * ui.scale);
    if (!ImGui_ImplSDL2_InitForOpenGL(window, context)) {
        snprintf(err, err_size, "cannot start Dear ImGui's SDL2 backend");
        ImGui::DestroyContext();
        return false;
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
        snprintf(err, err_size, "cannot start Dear ImGui's OpenGL3 backend on this context");
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
        return false;
    }
    ui.started = true;
    list_scenes();
    return true;
}

void ui_shutdown(void)
{
    if (!ui.started)
        return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    ui = ui_state();
}

bool ui_handle_event(const SDL_Event *e)
{
    ImGui_ImplSDL2_ProcessEvent(e);
    // where the events put the mouse (see ui_begin_frame)
    if (e->type == SDL_MOUSEMOTION) {
        ui.mouse = ImVec2((float)e->motion.x, (float)e->motion.y);
        ui.mouse_known = true;
    } else if (e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEBUTTONUP) {
        ui.mouse = ImVec2((float)e->button.x, (float)e->button.y);
        ui.mouse_known = true;
    } else if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_LEAVE) {
        ui.mouse_known = false;
    }
    const ImGuiIO &io = ImGui::GetIO();
    switch (e->type) {
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEWHEEL:
        return io.WantCaptureMouse;
    case SDL_KEYDOWN:
    case SDL_TEXTINPUT:
        return io.WantTextInput;
    default:
        return false;
    }
}

void ui_begin_frame(void)
{
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    // two frames within one tick of the clock (the layout pass of the first frame) would be a zero step
    ImGuiIO &io = ImGui::GetIO();
    if (!(io.DeltaTime > 0.0f))
        io.DeltaTime = 1e-4f;
    // The mouse where the last event put it: the backend asks X for the global pointer position, which
    // SDL caches from raw input events that a warped pointer (xdotool, remote desktops) does not send.
    if (ui.mouse_known)
        io.MousePos = ui.mouse;
    ImGui::NewFrame();
}

void ui_draw_status(const hud_status *s)
{
    char lines[HUD_MAX_LINES][HUD_LINE_SIZE];
    hud_tone tones[HUD_MAX_LINES];
    int n = hud_status_lines(s, lines, tones);
    const ImGuiViewport *vp = ImGui::GetMainViewport();
    const ImGuiStyle &style = ImGui::GetStyle();
    float margin = 6.0f * ui.scale;
    // Sized to this frame's text: a window that sizes itself follows its text one frame late, and is
    // not drawn on the frame it first appears.
    float text_w = 0.0f;
    for (int i = 0; i < n; ++i)
        text_w = std::max(text_w, ImGui::CalcTextSize(lines[i]).x);
    float text_h = (float)n * ImGui::GetTextLineHeightWithSpacing() - style.ItemSpacing.y;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + margin, vp->Pos.y + margin));
    ImGui::SetNextWindowSize(ImVec2(text_w + 2.0f * style.WindowPadding.x, text_h + 2.0f * style.WindowPadding.y));
    ImGui::SetNextWindowBgAlpha(HUD_BG_ALPHA);
    ImGui::PushStyleColor(ImGuiCol_WindowBg, HUD_BG);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    if (ImGui::Begin("##status", nullptr, FIXED)) {
        for (int i = 0; i < n; ++i)
            ImGui::TextColored(tone_colour(tones[i]), "%s", lines[i]);
    }
    ImGui::End();
    // the hint in the bottom-left corner, without a backing
    const char *hint = hud_hint(s);
    ImVec2 hint_size = ImGui::CalcTextSize(hint);
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + margin, vp->Pos.y + vp->Size.y - margin), 0, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSize(
        ImVec2(hint_size.x + 2.0f * style.WindowPadding.x, hint_size.y + 2.0f * style.WindowPadding.y));
    ImGui::SetNextWindowBgAlpha(0.0f);
    if (ImGui::Begin("##hint", nullptr, FIXED))
        ImGui::TextColored(DIM, "%s", hint);
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

void ui_draw_help(void)
{
    const ImGuiViewport *vp = ImGui::GetMainViewport();
    if (ui.help_font)
        ImGui::PushFont(ui.help_font);
    ImVec2 pad(18.0f * ui.scale, 14.0f * ui.scale);
    const char *title = "rubble-view controls";
    float keys_w = 0.0f, action_w = 0.0f, gap = 28.0f * ui.scale;
    for (int i = 0; i < hud_help_count; ++i) {
        keys_w = std::max(keys_w, ImGui::CalcTextSize(hud_help[i].keys).x);
        action_w = std::max(action_w, ImGui::CalcTextSize(hud_help[i].action).x);
    }
    float line = ImGui::GetTextLineHeightWithSpacing();
    float w = std::max(keys_w + gap + action_w, ImGui::CalcTextSize(title).x) + 2.0f * pad.x;
    float h = (float)(hud_help_count + 2) * line - ImGui::GetStyle().ItemSpacing.y + 2.0f * pad.y;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + 0.5f * vp->Size.x, vp->Pos.y + 0.5f * vp->Size.y), 0,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(w, h));
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::PushStyleColor(ImGuiCol_WindowBg, HUD_BG);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, pad);
    if (ImGui::Begin("##help", nullptr, FIXED)) {
        ImGui::TextColored(ACCENT, "%s", title);
        ImGui::NewLine();
        for (int i = 0; i < hud_help_count; ++i) {
            ImGui::TextUnformatted(hud_help[i].keys);
            ImGui::SameLine(pad.x + keys_w + gap);
            ImGui::TextUnformatted(hud_help[i].action);
        }
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    if (ui.help_font)
        ImGui::PopFont();
}

bool ui_draw_panel(const panel_view *v, bool *open, char *scene, size_t scene_size)
{
    const ImGuiViewport *vp = ImGui::GetMainViewport();
    float width = std::min(std::max(0.3f * vp->Size.x, 320.0f * ui.scale), 0.6f * vp->Size.x);
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - width, vp->Pos.y));
    ImGui::SetNextWindowSize(ImVec2(width, vp->Size.y));
    ImGui::SetNextWindowBgAlpha(1.0f);
    bool picked = false;
    if (ImGui::Begin("rubble-view  (F1 or Tab: hide)", open,
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                         ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::PushItemWidth(-90.0f * ui.scale);
        if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen))
            picked = draw_scene_picker(v, scene, scene_size);
        if (ImGui::CollapsingHeader("Show", ImGuiTreeNodeFlags_DefaultOpen))
            draw_show(v);
        if (ImGui::CollapsingHeader("Solver settings (live)", ImGuiTreeNodeFlags_DefaultOpen))
            draw_settings(v);
        if (ImGui::CollapsingHeader("Step timings", ImGuiTreeNodeFlags_DefaultOpen))
            draw_timings(v);
        ImGui::PopItemWidth();
    }
    ImGui::End();
    return picked;
}

void ui_end_frame(bool draw)
{
    if (!draw) {
        ImGui::EndFrame();
        return;
    }
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ui_pick_scene(const char *name, char *scene, size_t scene_size)
{
    std::string n(name);
    // a built-in name, then a file by name (with or without .yaml) or path
    for (size_t i = 0; i < ui.scenes.size(); ++i)
        if (ui.scenes[i].file.empty() && ui.scenes[i].scene == n)
            return pick(i, scene, scene_size);
    for (size_t i = 0; i < ui.scenes.size(); ++i) {
        const scene_entry &e = ui.scenes[i];
        if (!e.file.empty() && (e.file == n || e.file == n + ".yaml" || e.scene == n || e.file == base_name(n)))
            return pick(i, scene, scene_size);
    }
    return false;
}

void ui_scene_names(char *out, size_t out_size)
{
    std::string names;
    for (const scene_entry &e : ui.scenes)
        names += (names.empty() ? "" : ", ") + (e.file.empty() ? e.scene : e.file);
    snprintf(out, out_size, "%s", names.c_str());
}

} // extern "C"
