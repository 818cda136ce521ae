// SPDX-License-Identifier: GPL-2.0
/*
 * s8-pool: S8 of DESIGN.md, a server's thread pool.  T threads serve S
 * streams from one shared work queue: each item is "read the next CHUNK of
 * stream s", and the items of the streams follow each other in turn, so
 * every thread reads for every stream, as the threads of an iSCSI target,
 * a kernel file server or Samba do.  Stream s is the area at s/S of the
 * device (or file).  Reads go through the page cache (the kernel's
 * readahead runs ahead of each stream, issued by whichever thread gets
 * there) unless --direct.  With --fd-per-stream each stream is read
 * through its own open file, as a server that opens one file per client
 * does (the kernel's readahead state is per open file); by default all
 * streams share one, as a block target's LUN does.
 *
 *   s8-pool [--direct] [--fd-per-stream] DEV THREADS STREAMS CHUNK_KB SECONDS
 *
 * Prints one JSON object: the seconds measured, the bytes of each stream
 * and the longest read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define MAX_STREAMS	16
#define MAX_THREADS	64

static int fd[MAX_STREAMS], nstreams;
static size_t chunk;
static uint64_t area, pos[MAX_STREAMS], bytes[MAX_STREAMS];
static unsigned long next_item;
static double t_end, max_read;
static int stop;	/* __atomic: read by every thread */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	int s;
	uint64_t off;
	double t0, dt;
	ssize_t got;
	void *buf;

	(void)arg;
	if (posix_memalign(&buf, 4096, chunk))
		return NULL;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		/* The shared work queue: the next item of the next stream. */
		pthread_mutex_lock(&lock);
		s = next_item++ % nstreams;
		off = (uint64_t)s * area + pos[s];
		pos[s] = (pos[s] + chunk) % (area - area % chunk);
		pthread_mutex_unlock(&lock);
		t0 = now_s();
		got = pread(fd[s], buf, chunk, off);
		dt = now_s() - t0;
		if (got <= 0) {
			fprintf(stderr, "s8-pool: read at %llu: %s\n",
				(unsigned long long)off, strerror(errno));
			exit(1);
		}
		pthread_mutex_lock(&lock);
		if (t0 + dt <= t_end) {
			bytes[s] += got;
			if (dt > max_read)
				max_read = dt;
		}
		pthread_mutex_unlock(&lock);
		if (now_s() >= t_end)
			__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int direct = 0, per_stream = 0, nthreads, i;
	uint64_t size = 0;
	double secs, t0;
	struct stat st;

	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argv++, argc--) {
		if (!strcmp(argv[1], "--direct"))
			direct = 1;
		else if (!strcmp(argv[1], "--fd-per-stream"))
			per_stream = 1;
		else
			break;
	}
	if (argc != 6) {
		fprintf(stderr, "usage: s8-pool [--direct] [--fd-per-stream] %s\n",
			"DEV THREADS STREAMS CHUNK_KB SECONDS");
		return 2;
	}
	nthreads = atoi(argv[2]);
	nstreams = atoi(argv[3]);
	chunk = (size_t)atoi(argv[4]) << 10;
	secs = atof(argv[5]);
	if (nthreads < 1 || nthreads > MAX_THREADS || nstreams < 1 ||
	    nstreams > MAX_STREAMS || chunk < 4096 || chunk > (64 << 20) ||
	    secs <= 0) {
		fprintf(stderr, "s8-pool: bad arguments\n");
		return 2;
	}
	for (i = 0; i < nstreams; i++) {
		fd[i] = i && !per_stream ? fd[0] :
			open(argv[1], O_RDONLY | (direct ? O_DIRECT : 0));
		if (fd[i] < 0) {
			perror(argv[1]);
			return 2;
		}
	}
	if (fstat(fd[0], &st)) {
		perror(argv[1]);
		return 2;
	}
	if (S_ISBLK(st.st_mode))
		ioctl(fd[0], BLKGETSIZE64, &size);
	else
		size = st.st_size;
	area = size / nstreams & ~4095ULL;
	if (area < 2 * chunk) {
		fprintf(stderr, "s8-pool: %s too small\n", argv[1]);
		return 2;
	}
	t0 = now_s();
	t_end = t0 + secs;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			perror("pthread_create");
			return 2;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("{\"seconds\": %.3f, \"threads\": %d, \"streams\": %d, ",
	       secs, nthreads, nstreams);
	printf("\"chunk_kb\": %zu, \"direct\": %d, \"max_read_ms\": %.1f, ",
	       chunk >> 10, direct, max_read * 1e3);
	printf("\"stream_bytes\": [");
	for (i = 0; i < nstreams; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)bytes[i]);
	printf("]}\n");
	return 0;
}
