/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TH_GEN_H
#define TH_GEN_H
int th_gen_main(int argc, char **argv);
#endif
