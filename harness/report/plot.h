/* plot.h - gnuplot pictures: folders, data files, .gp scripts with the house theme, running
 * gnuplot. */
#ifndef QQB_PLOT_H
#define QQB_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* ======================================================================
 * The palette: Okabe & Ito's eight colours, safe for colour-blind
 * readers. Vermillion is kept for what must stand out (waiting, a
 * regression); the others cycle for everything else.
 * ====================================================================== */

#define QQB_PLOT_ALERT "#D55E00" /* vermillion */
#define QQB_PLOT_INK   "#333333" /* text, axes */
#define QQB_PLOT_FAINT "#EBEBEB" /* background bands, grid */

/* The I-th colour of the cycle (blue, bluish green, orange, reddish
 * purple, sky blue, black, yellow; vermillion left out), as "#RRGGBB". */
const char *qqb_plot_color(size_t i);

/* ======================================================================
 * Files. Every picture is a folder's worth: data files, the script that
 * draws them, the SVG and the PNG. Scripts name their files relative to
 * the folder, so 'gnuplot NAME.gp' re-draws them from there.
 * ====================================================================== */

/* mkdir -p DIR. Returns 0, or -1 with the reason in ERR. */
int qqb_plot_mkdir(const char *dir, char *err, size_t errsz);

/* Open DIR/NAME for writing ("w"). Returns the stream, or NULL with the
 * reason in ERR. */
FILE *qqb_plot_create(const char *dir, const char *name, char *err, size_t errsz);

/*
 * Text in a script. Every string that goes into a gnuplot script is written
 * by qqb_plot_str, and every comment by qqb_plot_comment: names come from
 * run JSON, baselines and .qq files that may be another machine's or a pull
 * request's, and gnuplot runs `...` inside double-quoted strings, and a
 * newline ends a command. So: single quotes only (gnuplot substitutes
 * nothing there), an embedded ' doubled, backquotes written as ', control
 * characters (newline, CR, tab, ESC, ...) and DEL as blanks.
 */
#define QQB_GP_FORMAT 0x1u /* gnuplot reads it as a format (tic labels): '%' doubled */
#define QQB_GP_LINES  0x2u /* a newline starts a new line: '...'."\n".'...' */
void qqb_plot_str(FILE *gp, const char *s, unsigned flags);
/* The same into OUT (OUTSZ bytes, cut short if need be; a quoted text that
 * was cut is refused by gnuplot, never run): returns OUT. */
const char *qqb_plot_quoted(char *out, size_t outsz, const char *s, unsigned flags);
/* "# S" and a newline: S on one line, control characters as blanks. */
void qqb_plot_comment(FILE *gp, const char *s);

/* S for a place gnuplot must find room for (a tic label, a key's title),
 * into OUT (OUTSZ bytes): at most MAX characters, a longer S kept by its
 * start and end around an ellipsis, never cut inside a UTF-8 character
 * (the page, the tables and the data's comments have it whole). Text of any length
 * otherwise makes gnuplot warn ("difficulty making room for xtic labels",
 * "Terminal canvas area too small to hold plot"), and a warning fails the
 * picture (qqb_plot_run): every label and title of a name goes through
 * it. Returns OUT. */
#define QQB_PLOT_TIC_MAX 40 /* a tic label */
#define QQB_PLOT_KEY_MAX 60 /* a key's title beside a plot 1000 pixels wide */
const char *qqb_plot_short(char *out, size_t outsz, const char *s, size_t max);

/* ======================================================================
 * Scripts.
 * ====================================================================== */

/* The opening of a script: a comment saying what it draws and how to
 * re-run it, UTF-8, and the light theme (white page, grey grid behind the
 * data, dark text, no enhanced-text markup so key names print as they
 * are: 'bytes_sent', 'MessageBus::Sync'). */
void qqb_plot_begin(FILE *gp, const char *what);

/* Select the SVG terminal (W x H pixels) and the output STEM.svg. The
 * caller's plot command follows. */
void qqb_plot_svg(FILE *gp, const char *stem, int width, int height);

/* After the plot command: the PNG terminal (pngcairo, W x H), output
 * STEM.png, 'replot', and the output closed. The plot must be a single
 * 'plot' (not multiplot), which replot repeats. */
void qqb_plot_png_replot(FILE *gp, const char *stem, int width, int height);

/* Draw one picture to both terminals when the plot is more than a single
 * 'plot' (a multiplot, labels set per panel): opens a loop whose body,
 * written between the two calls, runs once with the SVG terminal (W x H,
 * STEM.svg) and once with the PNG one (STEM.png), so the script states the
 * picture once. The body must set everything it relies on. */
void qqb_plot_both_begin(FILE *gp, const char *stem, int width, int height);
void qqb_plot_both_end(FILE *gp);

/* ======================================================================
 * Running gnuplot.
 * ====================================================================== */

/*
 * Run 'gnuplot SCRIPT' in DIR (fork + execvp, no shell; $QQB_GNUPLOT names
 * another program). Succeeds only when gnuplot exits 0 and writes nothing
 * on stderr: gnuplot reports many mistakes as warnings and exits 0.
 * Returns 0, or -1 with one line in ERR (gnuplot not found, its exit
 * status, or the first line it wrote on stderr).
 */
int qqb_plot_run(const char *dir, const char *script, char *err, size_t errsz);

#endif /* QQB_PLOT_H */
