/* SPDX-License-Identifier: MIT */
/*
 * report.h - errors and messages, in one voice for the whole kit.
 *
 * Every message goes to stderr, prefixed with the program's name. Results
 * go to stdout, as do the few steps a user waits for (the server listens,
 * a client has connected). Every verb's result is checked by one of the
 * our_verb_* functions, which name the verb when it failed, with errno's
 * text or the error number it returned.
 */
#ifndef OUR_REPORT_H
#define OUR_REPORT_H

#include <stdbool.h>
#include <infiniband/verbs.h>

#define OUR_FORMAT(a, b) __attribute__((format(printf, a, b)))

/* The program's name, the first word of each message: "client". */
extern const char *our_program_name;

/* Print "name: message" on stderr. */
void our_error(const char *fmt, ...) OUR_FORMAT(1, 2);

/*
 * Print "name: message" on stdout at once, even into a file or a pipe: a
 * step the user (or a script) waits for.
 */
void our_say(const char *fmt, ...) OUR_FORMAT(1, 2);

/*
 * Check a verb that sets errno on failure: one that returns -1 (the
 * rdma_* verbs, system calls), given as ret; or one
 * that returns NULL (ibv_alloc_pd, ibv_reg_mr...), given as !result. When
 * ret is not 0, report "what: errno's text" and return true. errno is
 * left as the verb left it.
 */
bool our_verb_failed(int ret, const char *fmt, ...) OUR_FORMAT(2, 3);

/*
 * The same for a verb that returns the error number itself (most ibv_*
 * verbs, and the functions of threads). ibv_post_send and ibv_post_recv
 * return it positive or negative, depending on the provider: both are
 * understood.
 */
bool our_verb_error(int ret, const char *fmt, ...) OUR_FORMAT(2, 3);


#endif
