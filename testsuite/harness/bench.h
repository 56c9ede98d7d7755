/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TH_BENCH_H
#define TH_BENCH_H
int th_bench_main(int argc, char **argv);
#endif
