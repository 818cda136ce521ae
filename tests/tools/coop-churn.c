// SPDX-License-Identifier: GPL-2.0
/*
 * coop-churn: stress ctxsched's cooperating-context code.  Groups of
 * short-lived threads, each with its own I/O context, read one stream in
 * turn (so their queues merge), join and leave while it runs, some turn to
 * far random reads before they go (so the merged queue turns seeky and is
 * split), some change their I/O priority (so they leave the merged queue),
 * all of them exit (so their contexts exit while the queue they are in may
 * be active, idling or being merged).  Every 4 KiB block read is checked
 * against the stamp --fill wrote: a misdirected or lost read fails.
 *
 *   coop-churn --fill DEV MB           stamp the first MB MiB of DEV
 *   coop-churn DEV MB SECONDS [GROUPS] churn over them for SECONDS
 *
 * Prints what it did; exits 1 on a short read or a bad block.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK		(64 << 10)
#define BLOCK		4096
#define SLOTS		6
#define MAX_GROUPS	4

struct group {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int occupied[SLOTS];
	int token;		/* slot whose turn it is, -1: none */
	uint64_t next;		/* stream offset, bytes */
	uint64_t base;
};

struct member {
	struct group *g;
	int slot;
	unsigned int seed;
};

static int fd;
static uint64_t region;
static int stop;	/* __atomic: read by every thread */
static unsigned long reads, bad, created, seeky, reprio;
static pthread_mutex_t stat_lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read @len at @off and check every block's stamp. */
static int read_check(void *buf, uint64_t off, size_t len)
{
	ssize_t got = pread(fd, buf, len, off);
	uint64_t b, stamp;
	int errors = 0;

	if (got != (ssize_t)len) {
		fprintf(stderr, "short read at %llu: %zd (%s)\n",
			(unsigned long long)off, got, strerror(errno));
		return 1;
	}
	for (b = 0; b < len / BLOCK; b++) {
		memcpy(&stamp, (char *)buf + b * BLOCK, sizeof(stamp));
		if (stamp != off / BLOCK + b) {
			fprintf(stderr, "bad block at %llu: stamp %llu\n",
				(unsigned long long)(off + b * BLOCK),
				(unsigned long long)stamp);
			errors++;
		}
	}
	return errors;
}

/* The next slot after @s that holds a member, or -1. */
static int next_slot(struct group *g, int s)
{
	int i;

	for (i = 1; i <= SLOTS; i++)
		if (g->occupied[(s + i) % SLOTS])
			return (s + i) % SLOTS;
	return -1;
}

static void *member_fn(void *arg)
{
	struct member *m = arg;
	struct group *g = m->g;
	int turns = 5 + rand_r(&m->seed) % 50, i, errors = 0, n = 0;
	int fate = rand_r(&m->seed) % 4;
	uint64_t off;
	void *buf;

	if (posix_memalign(&buf, BLOCK, CHUNK))
		return NULL;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && n < turns) {
		pthread_mutex_lock(&g->lock);
		while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && g->token != m->slot)
			pthread_cond_wait(&g->cond, &g->lock);
		off = g->base + g->next;
		g->next = (g->next + CHUNK) % (region / MAX_GROUPS);
		pthread_mutex_unlock(&g->lock);
		if (__atomic_load_n(&stop, __ATOMIC_RELAXED))
			break;
		errors += read_check(buf, off, CHUNK);
		n++;
		pthread_mutex_lock(&g->lock);
		g->token = next_slot(g, m->slot);
		pthread_cond_broadcast(&g->cond);
		pthread_mutex_unlock(&g->lock);
		/* Half-way, some change priority: they leave the merged queue. */
		if (fate == 2 && n == turns / 2) {
			syscall(SYS_ioprio_set, 1, 0,
				(2 << 13) | (rand_r(&m->seed) % 8));
			__atomic_add_fetch(&reprio, 1, __ATOMIC_RELAXED);
		}
	}
	/* Leave the stream first, so that the others go on. */
	pthread_mutex_lock(&g->lock);
	g->occupied[m->slot] = 0;
	if (g->token == m->slot)
		g->token = next_slot(g, m->slot);
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	/* Some turn to far random reads: their old queue turns seeky. */
	if (fate == 1 && !__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < 4 + (int)(rand_r(&m->seed) % 8); i++) {
			off = (uint64_t)(rand_r(&m->seed) % (region / CHUNK)) *
			      CHUNK;
			errors += read_check(buf, off, CHUNK);
			n++;
		}
		__atomic_add_fetch(&seeky, 1, __ATOMIC_RELAXED);
	}
	free(buf);
	pthread_mutex_lock(&stat_lock);
	reads += n;
	bad += errors;
	pthread_mutex_unlock(&stat_lock);
	free(m);
	return NULL;
}

static int fill(const char *dev, uint64_t bytes)
{
	uint64_t off, b;
	void *buf;

	fd = open(dev, O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BLOCK, CHUNK)) {
		perror(dev);
		return 2;
	}
	memset(buf, 0xa5, CHUNK);
	for (off = 0; off < bytes; off += CHUNK) {
		for (b = 0; b < CHUNK / BLOCK; b++) {
			uint64_t stamp = off / BLOCK + b;

			memcpy((char *)buf + b * BLOCK, &stamp, sizeof(stamp));
		}
		if (pwrite(fd, buf, CHUNK, off) != CHUNK) {
			perror("pwrite");
			return 2;
		}
	}
	fsync(fd);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct group groups[MAX_GROUPS];
	unsigned int seed = 42;
	int ngroups = 2, gi, s;
	double end;
	pthread_t t;

	if (argc == 4 && !strcmp(argv[1], "--fill"))
		return fill(argv[2], strtoull(argv[3], NULL, 0) << 20);
	if (argc < 4) {
		fprintf(stderr, "usage: coop-churn [--fill] DEV MB [SECONDS [GROUPS]]\n");
		return 2;
	}
	region = strtoull(argv[2], NULL, 0) << 20;
	end = now_s() + atof(argv[3]);
	if (argc > 4)
		ngroups = atoi(argv[4]);
	if (ngroups < 1 || ngroups > MAX_GROUPS || region < MAX_GROUPS * CHUNK) {
		fprintf(stderr, "coop-churn: bad arguments\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	memset(groups, 0, sizeof(groups));
	for (gi = 0; gi < ngroups; gi++) {
		pthread_mutex_init(&groups[gi].lock, NULL);
		pthread_cond_init(&groups[gi].cond, NULL);
		groups[gi].token = -1;
		groups[gi].base = region / MAX_GROUPS * gi;
	}
	/* Keep every group's slots filled with fresh threads. */
	while (now_s() < end) {
		for (gi = 0; gi < ngroups; gi++) {
			struct group *g = &groups[gi];

			pthread_mutex_lock(&g->lock);
			for (s = 0; s < SLOTS; s++) {
				struct member *m;

				if (g->occupied[s] || rand_r(&seed) % 3)
					continue;
				m = calloc(1, sizeof(*m));
				if (!m)
					break;
				m->g = g;
				m->slot = s;
				m->seed = rand_r(&seed);
				g->occupied[s] = 1;
				if (g->token < 0)
					g->token = s;
				if (pthread_create(&t, NULL, member_fn, m)) {
					g->occupied[s] = 0;
					free(m);
					continue;
				}
				pthread_detach(t);
				created++;
			}
			pthread_mutex_unlock(&g->lock);
		}
		usleep(2000);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (gi = 0; gi < ngroups; gi++) {
		pthread_mutex_lock(&groups[gi].lock);
		pthread_cond_broadcast(&groups[gi].cond);
		pthread_mutex_unlock(&groups[gi].lock);
	}
	/* Let the detached threads finish their last read. */
	for (s = 0; s < 200; s++) {
		int busy = 0;

		for (gi = 0; gi < ngroups; gi++)
			for (int k = 0; k < SLOTS; k++)
				busy += groups[gi].occupied[k];
		if (!busy)
			break;
		usleep(20000);
	}
	usleep(200000);
	pthread_mutex_lock(&stat_lock);
	printf("threads %lu reads %lu seeky %lu reprio %lu bad %lu\n",
	       created, reads, seeky, reprio, bad);
	pthread_mutex_unlock(&stat_lock);
	return bad ? 1 : 0;
}
