// SPDX-License-Identifier: GPL-2.0
/*
 * s2-turns: one sequential stream read by several threads in turn (bench
 * scenario S2, after seed 000: an iSCSI target serving one client stream
 * with 5 I/O threads).
 *
 *   s2-turns DEVICE OFFSET_MIB AREA_MIB THREADS CHUNK_KIB SECONDS
 *
 * Thread i waits for its turn, reads the next CHUNK_KIB of the stream with
 * pread() on an O_DIRECT descriptor and passes the turn to thread i+1.
 * Threads made by pthread_create() do not share an I/O context (no
 * CLONE_IO), so the scheduler sees THREADS tasks that each issue every
 * THREADS-th request of one sequential stream: the case CFQ lost half the
 * disk on.  THREADS=1 is the same stream read by one thread alone.  The
 * stream starts at OFFSET_MIB and wraps after AREA_MIB.
 *
 * Prints one JSON object: bytes read, seconds, MB/s (10^6 bytes), reads
 * per thread and the slowest read in microseconds.  Exits 1 on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

struct stream {
	int fd;
	int nthreads;
	size_t chunk;
	off_t start;
	off_t area;
	off_t pos;		/* next offset, relative to start */
	double deadline;	/* stop at this time (CLOCK_MONOTONIC, s) */
	int stop;
	int err;		/* first errno seen, 0 if none */
	uint64_t bytes;
	uint64_t max_ns;	/* slowest pread */
	double end;
	sem_t turn[MAX_THREADS];
	uint64_t reads[MAX_THREADS];
};

struct worker {
	struct stream *s;
	int id;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Only the thread holding the turn touches the stream's state, and the
 * semaphores order those accesses, so no lock is needed.
 */
static void *reader(void *arg)
{
	struct worker *w = arg;
	struct stream *s = w->s;
	int next = (w->id + 1) % s->nthreads;
	void *buf;

	if (posix_memalign(&buf, 4096, s->chunk)) {
		/* Take part in the turns anyway so that nobody waits forever. */
		buf = NULL;
	}
	for (;;) {
		double t0, t1;
		ssize_t got;

		while (sem_wait(&s->turn[w->id]) && errno == EINTR)
			;
		if (!buf && !s->err) {
			s->err = ENOMEM;
			s->stop = 1;
		}
		if (s->stop)
			break;
		t0 = now();
		if (t0 >= s->deadline) {
			s->stop = 1;
			s->end = t0;
			break;
		}
		got = pread(s->fd, buf, s->chunk, s->start + s->pos);
		t1 = now();
		if (got != (ssize_t)s->chunk) {
			s->err = got < 0 ? errno : EIO;
			s->stop = 1;
			s->end = t1;
			break;
		}
		if ((t1 - t0) * 1e9 > s->max_ns)
			s->max_ns = (t1 - t0) * 1e9;
		s->bytes += s->chunk;
		s->reads[w->id]++;
		s->pos += s->chunk;
		if (s->pos + (off_t)s->chunk > s->area)
			s->pos = 0;
		sem_post(&s->turn[next]);
	}
	/* Pass the turn on so that every thread sees the stop. */
	sem_post(&s->turn[next]);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct stream s;
	struct worker w[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	double begin, secs;
	int i;

	if (argc != 7) {
		fprintf(stderr,
			"usage: %s DEVICE OFFSET_MIB AREA_MIB THREADS CHUNK_KIB SECONDS\n",
			argv[0]);
		return 2;
	}
	s.start = (off_t)atoll(argv[2]) << 20;
	s.area = (off_t)atoll(argv[3]) << 20;
	s.nthreads = atoi(argv[4]);
	s.chunk = (size_t)atol(argv[5]) << 10;
	secs = atof(argv[6]);
	if (s.nthreads < 1 || s.nthreads > MAX_THREADS || !s.chunk ||
	    s.chunk % 4096 || s.area < (off_t)s.chunk || secs <= 0) {
		fprintf(stderr, "s2-turns: bad arguments\n");
		return 2;
	}
	s.fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (s.fd < 0) {
		fprintf(stderr, "s2-turns: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; i < s.nthreads; i++)
		sem_init(&s.turn[i], 0, 0);
	for (i = 0; i < s.nthreads; i++) {
		w[i].s = &s;
		w[i].id = i;
		if (pthread_create(&tid[i], NULL, reader, &w[i])) {
			fprintf(stderr, "s2-turns: pthread_create failed\n");
			return 1;
		}
	}
	begin = now();
	s.deadline = begin + secs;
	sem_post(&s.turn[0]);
	for (i = 0; i < s.nthreads; i++)
		pthread_join(tid[i], NULL);
	close(s.fd);
	if (s.err) {
		fprintf(stderr, "s2-turns: read at %lld: %s\n",
			(long long)(s.start + s.pos), strerror(s.err));
		return 1;
	}
	secs = s.end - begin;
	printf("{\"threads\": %d, \"chunk_kib\": %zu, \"bytes\": %llu, ",
	       s.nthreads, s.chunk >> 10, (unsigned long long)s.bytes);
	printf("\"seconds\": %.6f, \"mbs\": %.3f, \"max_read_us\": %.1f, ",
	       secs, s.bytes / secs / 1e6, s.max_ns / 1e3);
	printf("\"reads\": [");
	for (i = 0; i < s.nthreads; i++)
		printf("%s%llu", i ? ", " : "",
		       (unsigned long long)s.reads[i]);
	printf("]}\n");
	return 0;
}
