/* SPDX-License-Identifier: GPL-2.0-or-later */
/* svg_plot.c - line charts as plain SVG (svg_plot.h). */
#include <math.h>
#include <string.h>

#include "svg_plot.h"

/* Colours told apart in print and by most colour-blind readers. */
static const char *const colour[] = { "#0072b2", "#d55e00", "#009e73",
				      "#cc79a7", "#e69f00", "#56b4e9" };
static const char *const dash[] = { "", "6,3", "2,2", "8,3,2,3" };

#define N_COLOURS (sizeof(colour) / sizeof(colour[0]))
#define N_DASHES  (sizeof(dash) / sizeof(dash[0]))

int ts_svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		int r;

		switch (*s) {
		case '&':
			r = fputs("&amp;", f);
			break;
		case '<':
			r = fputs("&lt;", f);
			break;
		case '>':
			r = fputs("&gt;", f);
			break;
		case '"':
			r = fputs("&quot;", f);
			break;
		case '\'':
			r = fputs("&apos;", f);
			break;
		default:
			r = fputc(*s, f);
		}
		if (r == EOF)
			return -1;
	}
	return 0;
}

static void text(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y,
		anchor);
	ts_svg_escape(f, s);
	fputs("</text>\n", f);
}

static double x_of(const struct ts_svg_chart *c, size_t i)
{
	double w = TS_SVG_RIGHT - TS_SVG_LEFT;

	return c->n_x > 1 ? TS_SVG_LEFT + w * (double)i / (double)(c->n_x - 1)
			  : TS_SVG_LEFT + w / 2;
}

static double y_of(const struct ts_svg_chart *c, double top, double v)
{
	double span = c->y_max - c->y_min, r;

	r = span > 0 ? (v - c->y_min) / span : 0.5;
	if (r < 0)
		r = 0;
	if (r > 1)
		r = 1;
	return top + TS_SVG_PANEL_H * (1 - r);
}

static void series_style(FILE *f, size_t s)
{
	fprintf(f, "fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"",
		colour[s % N_COLOURS]);
	if (*dash[(s / N_COLOURS) % N_DASHES])
		fprintf(f, " stroke-dasharray=\"%s\"",
			dash[(s / N_COLOURS) % N_DASHES]);
}

/* One series of a panel: a polyline for each run of numbers. */
static void line(FILE *f, const struct ts_svg_chart *c, double top,
		 const double *y, size_t s)
{
	size_t i;
	int open = 0;

	for (i = 0; i < c->n_x; i++) {
		if (isnan(y[i])) {
			if (open)
				fputs("\"/>\n", f);
			open = 0;
			continue;
		}
		if (!open) {
			fputs("<polyline ", f);
			series_style(f, s);
			fputs(" points=\"", f);
		}
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", x_of(c, i),
			y_of(c, top, y[i]));
		open = 1;
	}
	if (open)
		fputs("\"/>\n", f);
}

static void panel(FILE *f, const struct ts_svg_chart *c, size_t p)
{
	double top =
		TS_SVG_TOP + (double)p * (TS_SVG_PANEL_H + TS_SVG_PANEL_GAP);
	double mid = (c->y_min + c->y_max) / 2;
	char b[32];
	size_t s;

	text(f, TS_SVG_LEFT, top - 8, "start", c->panel[p].title);
	fprintf(f,
		"<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		TS_SVG_LEFT, top, TS_SVG_RIGHT - TS_SVG_LEFT, TS_SVG_PANEL_H);
	fprintf(f,
		"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		TS_SVG_LEFT, y_of(c, top, mid), TS_SVG_RIGHT,
		y_of(c, top, mid));
	snprintf(b, sizeof(b), "%g", c->y_max);
	text(f, TS_SVG_LEFT - 6, top + 4, "end", b);
	snprintf(b, sizeof(b), "%g", mid);
	text(f, TS_SVG_LEFT - 6, y_of(c, top, mid) + 4, "end", b);
	snprintf(b, sizeof(b), "%g", c->y_min);
	text(f, TS_SVG_LEFT - 6, top + TS_SVG_PANEL_H + 4, "end", b);
	text(f, TS_SVG_LEFT, top + TS_SVG_PANEL_H + 16, "start", c->x_first);
	text(f, TS_SVG_RIGHT, top + TS_SVG_PANEL_H + 16, "end", c->x_last);
	for (s = 0; s < c->n_series; s++)
		line(f, c, top, c->panel[p].y[s], s);
}

static void legend(FILE *f, const struct ts_svg_chart *c)
{
	double x = TS_SVG_LEFT;
	size_t s;

	if (c->y_name) {
		text(f, x, 40, "start", c->y_name);
		x += 16 + 7 * (double)strlen(c->y_name);
	}
	for (s = 0; s < c->n_series; s++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"36\" x2=\"%.1f\" y2=\"36\" ",
			x, x + 24);
		series_style(f, s);
		fputs("/>\n", f);
		text(f, x + 30, 40, "start", c->series[s]);
		x += 40 + 8 * (double)strlen(c->series[s]);
	}
}

int ts_svg_chart_write(FILE *f, const struct ts_svg_chart *c)
{
	size_t p;
	double h;

	if (!c->n_panels || !c->n_series || !c->n_x)
		return -1;
	h = TS_SVG_TOP +
	    (double)c->n_panels * (TS_SVG_PANEL_H + TS_SVG_PANEL_GAP);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		TS_SVG_WIDTH, h, TS_SVG_WIDTH, h);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", f);
	fputs("<g font-size=\"14\">", f);
	text(f, TS_SVG_LEFT, 18, "start", c->title);
	fputs("</g>\n", f);
	legend(f, c);
	for (p = 0; p < c->n_panels; p++)
		panel(f, c, p);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
