/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg_plot.h - line charts as a plain SVG file, no library (ts-replay(1),
 * --compare: FairShare over time of the biggest movers, one line per
 * configuration).
 *
 * A chart is panels stacked top to bottom, all on the same x axis: the
 * samples 0 .. n_x - 1, evenly spaced (the replay's samples are), with
 * the caller's labels for the first and last.  Each panel has its title
 * and one line per series, y from y_min (bottom) to y_max (top), values
 * outside clipped to the frame.  Series i has the same colour and dash
 * in every panel and in the legend.  Every text is XML-escaped.
 */
#ifndef TS_SVG_PLOT_H
#define TS_SVG_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct ts_svg_panel {
	const char *title;
	const double *const *y; /* y[series][0 .. n_x); NaN: a gap */
};

struct ts_svg_chart {
	const char *title;
	const char *x_first, *x_last; /* labels under the x axis */
	const char *y_name;	      /* before the legend; may be NULL */
	double y_min, y_max;
	size_t n_x;
	const char *const *series; /* legend labels, n_series */
	size_t n_series;
	const struct ts_svg_panel *panel;
	size_t n_panels;
};

/* Geometry, in SVG user units, for the caller's and the tests' use. */
#define TS_SVG_WIDTH	 800
#define TS_SVG_LEFT	 60  /* the frame's left edge */
#define TS_SVG_RIGHT	 780 /* its right edge */
#define TS_SVG_TOP	 60  /* the first panel's frame top */
#define TS_SVG_PANEL_H	 160 /* a frame's height */
#define TS_SVG_PANEL_GAP 50  /* from a frame's bottom to the next top */

/*
 * ts_svg_chart_write() - c as an SVG document to f.
 * RET 0, or -1 when writing failed (errno set) or c is empty.
 */
int ts_svg_chart_write(FILE *f, const struct ts_svg_chart *c);

/*
 * ts_svg_escape() - s with & < > " ' as entities into f.  RET 0 or -1.
 */
int ts_svg_escape(FILE *f, const char *s);

#endif /* TS_SVG_PLOT_H */
