/* SPDX-License-Identifier: MIT */
/*
 * nonblocking.h - what ping-sr-4 does to both its channels, the CM's and
 * the completion channel: put the file descriptor in O_NONBLOCK mode, so
 * that reading it never sleeps and poll() does all the waiting.
 */
#ifndef OUR_NONBLOCKING_H
#define OUR_NONBLOCKING_H

/*
 * Put fd, the file descriptor of the channel named what, in O_NONBLOCK
 * mode. Returns 0, or -1 (reported).
 */
int our_set_nonblocking(int fd, const char *what);

#endif
