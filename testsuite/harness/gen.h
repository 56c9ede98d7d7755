/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gen.h - seeded random parity cases, written as fixture text.
 *
 * A case is a pure function of (algorithm, seed): the same pair gives the
 * same bytes on every machine (integer PRNG, splitmix64), so a failing
 * case is reproduced with "ts-harness gen -a ALGO -s SEED".
 */
#ifndef TH_GEN_H
#define TH_GEN_H

#include <stdint.h>
#include <stdio.h>

enum th_algo {
	TH_CLASSIC,	    /* PriorityFlags=NO_FAIR_TREE */
	TH_DEPTH_OBLIVIOUS, /* PriorityFlags=DEPTH_OBLIVIOUS */
	TH_FAIR_TREE,	    /* the default */
};

/* th_algo_parse() - "classic", "depth_oblivious", "fair_tree".  RET 0/-1 */
int th_algo_parse(const char *name, enum th_algo *algo);

/* th_algo_name() - the name th_algo_parse() accepts. */
const char *th_algo_name(enum th_algo algo);

/* th_gen_case() - write case (algo, seed) to out as a fixture. */
void th_gen_case(enum th_algo algo, uint64_t seed, FILE *out);

/* th_gen_main() - "ts-harness gen -a ALGO -s SEED". */
int th_gen_main(int argc, char **argv);

#endif
