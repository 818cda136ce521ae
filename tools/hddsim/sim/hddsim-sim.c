// SPDX-License-Identifier: GPL-2.0
/*
 * hddsim-sim: run the hddsim timing model (model.c, profile.c) in
 * userspace against sequential readers, the way fio drives the real
 * device, to tune the profiles without booting a VM.
 *
 *   hddsim-sim [-t SEC] [-b KB] [-d DEPTH] [-g US] [-n N] [-w] SPEC [AT...]
 *
 * SPEC is a device specification as for the module ("sata",
 * "sata:seek_avg_us=0", ...).  Each AT starts a reader at that offset
 * (a percentage of the device with '%', else MiB); -n N starts N readers
 * at i/N of the device instead; the default is one reader at 0.  Every
 * reader keeps DEPTH requests of KB KiB in flight (default 1 and 512) and
 * issues the next one US microseconds after a completion (default 50,
 * the turnaround of fio under QEMU/TCG is in the 50-300 us range).  -w
 * writes instead of reading.  Prints the aggregate and per-reader MB/s.
 */
#include "../model.h"
#include "../profile.h"

#define MAX_READERS	64
#define MAX_DEPTH	32

#define MAX_PIECES	32

/* One I/O of a reader; the block layer splits it at stripe units. */
struct slot {
	int state;		/* 0 idle, 1 in flight */
	u64 at;			/* idle: next submission */
	int pieces;
	int left;
	u64 bytes;
	struct piece {
		struct hs_cmd cmd;
		struct slot *slot;
		int state;	/* 0 done, 1 queued in the model, 2 armed */
	} piece[MAX_PIECES];
};

struct reader {
	u64 pos;
	u64 bytes;
	struct slot slot[MAX_DEPTH];
};

static struct hs_model model;
static struct reader rd[MAX_READERS];

static void bad_args(void)
{
	fprintf(stderr,
		"usage: hddsim-sim [-t SEC] [-b KB] [-d DEPTH] [-g US] [-n N] [-w] SPEC [AT...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	u64 dur = 10 * NSEC_PER_SEC, gap = 50 * NSEC_PER_USEC, t, best;
	int nr = 0, depth = 1, spread = 0, write = 0, opt, i, j, k, bi, bj, kind;
	u32 bs = 1024, u, left;
	struct hs_params p;
	char spec[512];
	struct slot *s;
	double total = 0;
	int ret;

	while ((opt = getopt(argc, argv, "t:b:d:g:n:w")) != -1) {
		switch (opt) {
		case 't':
			dur = (u64)(atof(optarg) * NSEC_PER_SEC);
			break;
		case 'b':
			bs = atoi(optarg) * 2;
			break;
		case 'd':
			depth = atoi(optarg);
			break;
		case 'g':
			gap = (u64)atoi(optarg) * NSEC_PER_USEC;
			break;
		case 'n':
			spread = atoi(optarg);
			break;
		case 'w':
			write = 1;
			break;
		default:
			bad_args();
		}
	}
	if (optind >= argc || depth < 1 || depth > MAX_DEPTH || !bs ||
	    bs > 4096)
		bad_args();
	snprintf(spec, sizeof(spec), "%s", argv[optind++]);
	if (!hs_parse(spec, &p) || hs_model_init(&model, &p)) {
		fprintf(stderr, "bad device specification\n");
		return 2;
	}
	if (spread) {
		for (nr = 0; nr < spread && nr < MAX_READERS; nr++)
			rd[nr].pos = model.capacity / spread * nr;
	} else {
		for (; optind < argc && nr < MAX_READERS; optind++, nr++) {
			double v = atof(argv[optind]);

			if (strchr(argv[optind], '%'))
				rd[nr].pos = (u64)(model.capacity * v / 100);
			else
				rd[nr].pos = (u64)(v * 2048);
		}
		if (!nr)
			nr = 1;
	}
	for (i = 0; i < nr; i++)
		rd[i].pos &= ~7ULL;

	for (t = 0; t <= dur;) {
		/* The earliest event: a submission, a completion or a spindle. */
		struct piece *bp = NULL;

		best = UINT64_MAX;
		kind = -1;
		bi = 0;
		bj = 0;
		for (i = 0; i < nr; i++) {
			for (j = 0; j < depth; j++) {
				s = &rd[i].slot[j];
				if (!s->state && s->at < best) {
					best = s->at;
					kind = 0;
					bi = i;
					bj = j;
				}
				for (k = 0; s->state && k < s->pieces; k++) {
					if (s->piece[k].state == 2 &&
					    s->piece[k].cmd.done < best) {
						best = s->piece[k].cmd.done;
						kind = 2;
						bi = i;
						bj = j;
						bp = &s->piece[k];
					}
				}
			}
		}
		for (u = 0; u < model.nunits; u++) {
			if (model.unit[u].busy &&
			    model.unit[u].busy_until < best) {
				best = model.unit[u].busy_until;
				kind = 3;
				bi = u;
			}
		}
		if (kind < 0)
			break;
		t = best;
		if (kind == 3) {
			struct hs_cmd *c = hs_unit_run(&model, bi);

			if (c)
				container_of(c, struct piece, cmd)->state = 2;
			continue;
		}
		s = &rd[bi].slot[bj];
		if (kind == 2) {
			bp->state = 0;
			if (--s->left)
				continue;
			if (t <= dur)
				rd[bi].bytes += s->bytes;
			s->state = 0;
			s->at = t + gap;
			continue;
		}
		if (rd[bi].pos + bs > model.capacity)
			rd[bi].pos = 0;
		s->state = 1;
		s->bytes = (u64)bs << 9;
		s->pieces = 0;
		/* Requests never span a stripe unit, as with chunk_sectors. */
		for (left = bs; left; left -= u) {
			struct piece *pc = &s->piece[s->pieces++];

			if (s->pieces > MAX_PIECES) {
				fprintf(stderr, "too many stripe units\n");
				return 2;
			}

			u = left;
			if (model.chunk_sectors)
				u = min_t(u64, left, model.chunk_sectors -
					  rd[bi].pos % model.chunk_sectors);
			ret = hs_submit(&model, &pc->cmd, rd[bi].pos, u,
					write ? HS_WRITE : HS_READ, t);
			rd[bi].pos += u;
			pc->state = ret & HS_DONE ? 2 : 1;
		}
		s->left = s->pieces;
	}
	for (i = 0; i < nr; i++)
		total += rd[i].bytes;
	printf("total %.1f MB/s:", total / ((double)dur / NSEC_PER_SEC) / 1e6);
	for (i = 0; i < nr; i++)
		printf(" %.1f", rd[i].bytes / ((double)dur / NSEC_PER_SEC) / 1e6);
	printf("\n# cylinders %u, rotation %.3f ms, seeks %llu (avg %.2f ms), ",
	       model.cylinders, model.rot_ns / 1e6,
	       (unsigned long long)model.st.seeks,
	       model.st.seeks ? model.st.seek_ns / 1e6 / model.st.seeks : 0);
	printf("rotate avg %.2f ms, hits %llu of %llu\n",
	       (model.st.reads + model.st.writes) ?
	       model.st.rotate_ns / 1e6 / (model.st.reads + model.st.writes) : 0,
	       (unsigned long long)model.st.cache_hits,
	       (unsigned long long)(model.st.reads + model.st.writes));
	return 0;
}
