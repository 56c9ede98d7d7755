/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error_once.h - an error line logged once, whichever part of the plugin
 * refuses to start (the configuration, the usage windows, the
 * checkpoint).  Its own file so that those parts call it and not each
 * other: calls among the plugin's files run one way (the structure
 * stage's "plugin calls" check).
 */
#ifndef PT_ERROR_ONCE_H
#define PT_ERROR_ONCE_H

/*
 * error_once() - error(line), unless it is the line logged last (then
 * debug(), "(again)"): when init() fails, Slurm's plugin loader calls it
 * a second time (the plugin is linked -z nodelete, so the memory of the
 * last line survives), and an administrator reads each refusal once.
 */
void error_once(const char *line);

#endif /* PT_ERROR_ONCE_H */
