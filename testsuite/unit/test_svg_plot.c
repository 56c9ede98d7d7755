/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Line charts as SVG (src/svg_plot.c): one polyline per series and panel
 * (split at NaN gaps), values placed by the documented geometry and
 * clipped to the frame, every text escaped.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg_plot.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static char *write_chart(const struct ts_svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ts_svg_chart_write(f, c), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* The points of the n-th polyline (0-based) into x[], y[]; RET count. */
static size_t points(const char *svg, size_t n, double *x, double *y)
{
	const char *p = svg;
	size_t k = 0;
	int used;

	while (n-- + 1)
		p = strstr(p, "<polyline") + 1;
	p = strstr(p, "points=\"") + 8;
	while (sscanf(p, "%lf,%lf%n", &x[k], &y[k], &used) == 2) {
		k++;
		p += used;
	}
	return k;
}

START_TEST(svg_values_placed_by_the_geometry)
{
	const double a[] = { 1, 0.5, 0, 2 }, b[] = { 0, NAN, 0.25, -1 };
	const double *ys[] = { a, b };
	const char *const names[] = { "classic", "fair_tree" };
	struct ts_svg_panel panels[] = { { "acct/bob", ys }, { "x", ys } };
	struct ts_svg_chart c = { .title = "t",
				  .x_first = "from",
				  .x_last = "to",
				  .y_name = "FairShare",
				  .y_min = 0,
				  .y_max = 1,
				  .n_x = 4,
				  .series = names,
				  .n_series = 2,
				  .panel = panels,
				  .n_panels = 2 };
	double x[8], y[8],
		top2 = TS_SVG_TOP + TS_SVG_PANEL_H + TS_SVG_PANEL_GAP;
	char *svg = write_chart(&c);

	/* a: one line; b: split by its NaN; two panels */
	ck_assert_uint_eq(count(svg, "<polyline"), 2 * 3);
	ck_assert_uint_eq(points(svg, 0, x, y), 4);
	ck_assert_double_eq(x[0], TS_SVG_LEFT);
	ck_assert_double_eq(x[3], TS_SVG_RIGHT);
	ck_assert_double_eq(y[0], TS_SVG_TOP);			    /* 1: top */
	ck_assert_double_eq(y[1], TS_SVG_TOP + TS_SVG_PANEL_H / 2); /* 0.5 */
	ck_assert_double_eq(y[2], TS_SVG_TOP + TS_SVG_PANEL_H);	    /* 0 */
	ck_assert_double_eq(y[3], TS_SVG_TOP);	    /* 2: clipped */
	ck_assert_uint_eq(points(svg, 1, x, y), 1); /* b before NaN */
	ck_assert_uint_eq(points(svg, 2, x, y), 2); /* after */
	ck_assert_double_eq(y[0], TS_SVG_TOP + TS_SVG_PANEL_H * 0.75);
	ck_assert_double_eq(y[1], TS_SVG_TOP + TS_SVG_PANEL_H); /* clipped */
	ck_assert_uint_eq(points(svg, 3, x, y), 4);		/* panel 2 */
	ck_assert_double_eq(y[0], top2);
	/* series 2 is told apart from 1 */
	ck_assert_uint_eq(count(svg, "#0072b2"), 3);
	ck_assert_uint_eq(count(svg, "#d55e00"), 5);
	ck_assert_ptr_nonnull(strstr(svg, ">acct/bob</text>"));
	ck_assert_ptr_nonnull(strstr(svg, "</svg>\n"));
	free(svg);
}
END_TEST

START_TEST(svg_texts_are_escaped)
{
	const double a[] = { 0.5 };
	const double *ys[] = { a };
	const char *const names[] = { "<a&b>" };
	struct ts_svg_panel panels[] = { { "\"o'k\"", ys } };
	struct ts_svg_chart c = { .title = "R&D",
				  .x_first = "",
				  .x_last = "",
				  .y_min = 0,
				  .y_max = 1,
				  .n_x = 1,
				  .series = names,
				  .n_series = 1,
				  .panel = panels,
				  .n_panels = 1 };
	char *svg = write_chart(&c);

	ck_assert_ptr_nonnull(strstr(svg, ">&lt;a&amp;b&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">&quot;o&apos;k&quot;</text>"));
	ck_assert_ptr_nonnull(strstr(svg, ">R&amp;D</text>"));
	ck_assert_ptr_null(strstr(svg, "<a&"));
	/* one sample: a one-point line in the middle */
	ck_assert_uint_eq(count(svg, "<polyline"), 1);
	free(svg);
}
END_TEST

START_TEST(svg_refuses_an_empty_chart)
{
	struct ts_svg_chart c = { .title = "t" };

	ck_assert_int_eq(ts_svg_chart_write(stdout, &c), -1);
}
END_TEST

Suite *suite_svg_plot(void)
{
	Suite *s = suite_create("svg_plot");
	TCase *tc = tcase_create("svg_plot");

	tcase_add_test(tc, svg_values_placed_by_the_geometry);
	tcase_add_test(tc, svg_texts_are_escaped);
	tcase_add_test(tc, svg_refuses_an_empty_chart);
	suite_add_tcase(s, tc);
	return s;
}
