// SPDX-License-Identifier: GPL-2.0
/*
 * Sparse memory backing for hddsim: a page is allocated on the first write
 * that touches it; reading a page never written returns zeros.  Emulated
 * disks can thus be as large as the drives they model.
 */
#include <linux/blk-mq.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/xarray.h>

#include "hddsim.h"

static struct page *hs_store_page(struct xarray *pages, pgoff_t idx)
{
	struct page *page, *old;

	page = xa_load(pages, idx);
	if (page)
		return page;
	/* The tag set is BLK_MQ_F_BLOCKING: queue_rq() may sleep here. */
	page = alloc_page(GFP_NOIO | __GFP_ZERO);
	if (!page)
		return NULL;
	old = xa_cmpxchg(pages, idx, NULL, page, GFP_NOIO);
	if (!old)
		return page;
	__free_page(page);
	return xa_is_err(old) ? NULL : old;
}

/**
 * hs_store_rw() - move the data of a read or write request
 * @pages: the backing store
 * @rq: a REQ_OP_READ or REQ_OP_WRITE request
 *
 * Return: %BLK_STS_OK, or %BLK_STS_RESOURCE when a page for written data
 * cannot be allocated (the request is retried later).
 */
blk_status_t hs_store_rw(struct xarray *pages, struct request *rq)
{
	bool write = req_op(rq) == REQ_OP_WRITE;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	unsigned int off, n, done;
	struct bio_vec bv;
	struct page *page;

	rq_for_each_segment(bv, rq, iter) {
		for (done = 0; done < bv.bv_len; done += n, pos += n) {
			off = offset_in_page(pos);
			n = min_t(unsigned int, bv.bv_len - done,
				  PAGE_SIZE - off);
			if (write) {
				page = hs_store_page(pages, pos >> PAGE_SHIFT);
				if (!page)
					return BLK_STS_RESOURCE;
				memcpy_page(page, off, bv.bv_page,
					    bv.bv_offset + done, n);
				continue;
			}
			page = xa_load(pages, pos >> PAGE_SHIFT);
			if (page)
				memcpy_page(bv.bv_page, bv.bv_offset + done,
					    page, off, n);
			else
				memzero_page(bv.bv_page, bv.bv_offset + done,
					     n);
		}
	}
	return BLK_STS_OK;
}

/**
 * hs_store_discard() - forget the data of a range of sectors
 * @pages: the backing store
 * @sector: first sector
 * @nr: number of sectors
 *
 * The range reads as zeros afterwards.  Pages are zeroed rather than freed
 * so that a read or write racing with the discard never sees a freed page.
 */
void hs_store_discard(struct xarray *pages, sector_t sector, u32 nr)
{
	u64 pos = (u64)sector << SECTOR_SHIFT;
	u64 end = pos + ((u64)nr << SECTOR_SHIFT), a, b;
	struct page *page;
	unsigned long idx;

	if (!nr)
		return;
	xa_for_each_range(pages, idx, page, pos >> PAGE_SHIFT,
			  (end - 1) >> PAGE_SHIFT) {
		a = max_t(u64, pos, (u64)idx << PAGE_SHIFT);
		b = min_t(u64, end, ((u64)idx + 1) << PAGE_SHIFT);
		memzero_page(page, offset_in_page(a), b - a);
	}
}

/**
 * hs_store_free() - release every page of the backing store
 * @pages: the backing store; no I/O may be in flight
 */
void hs_store_free(struct xarray *pages)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(pages, idx, page)
		__free_page(page);
	xa_destroy(pages);
}
