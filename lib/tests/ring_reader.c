// SPDX-License-Identifier: GPL-2.0
/*
 * The ring reader over a fake ring in memory (pc_ring_attach): a test plays
 * the kernel's part, writing records at data_head (forward) or below it
 * (write_backward) and publishing data_head with release ordering.
 */
#include <stdlib.h>

#include "perfconf.h"
#include "ring/record_build.h"

_Static_assert(sizeof(struct perf_event_mmap_page) <= 4096, "control page fits a page");

struct fake {
	struct perf_event_mmap_page *page;
	unsigned char *data;
	uint64_t size;
	uint64_t head;		/* the producer's position */
};

static void fake_init(struct fake *f, uint64_t size, uint64_t start)
{
	f->page = aligned_alloc(4096, 4096);
	memset(f->page, 0, 4096);
	f->data = aligned_alloc(64, size);	/* sizes are >= 256, powers of two */
	memset(f->data, 0, size);
	f->size = size;
	f->head = start;
	f->page->data_head = start;
	f->page->data_tail = start;
	f->page->data_offset = 4096;
	f->page->data_size = size;
}

static void fake_free(struct fake *f)
{
	free(f->page);
	free(f->data);
}

static void fake_put(struct fake *f, uint64_t pos, const void *rec, size_t len)
{
	const unsigned char *p = rec;
	size_t i;

	for (i = 0; i < len; i++)
		f->data[(pos + i) & (f->size - 1)] = p[i];
}

static void fake_publish(struct fake *f)
{
	__atomic_store_n(&f->page->data_head, f->head, __ATOMIC_RELEASE);
}

/* Forward: at head, then head moves up. */
static void fake_write(struct fake *f, const void *rec, size_t len)
{
	fake_put(f, f->head, rec, len);
	f->head += len;
	fake_publish(f);
}

/* write_backward: head moves down, then the record goes at the new head. */
static void fake_write_backward(struct fake *f, const void *rec, size_t len)
{
	f->head -= len;
	fake_put(f, f->head, rec, len);
	fake_publish(f);
}

/* A record of `size` bytes whose every word tells its sequence number. */
static __attribute__((__noinline__)) void make_rec(uint64_t *buf, uint64_t seq, size_t size)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES, .misc = 0,
				       .size = (uint16_t)size };
	size_t i;

	memcpy(buf, &h, sizeof(h));
	for (i = 1; i < size / 8; i++)
		buf[i] = seq * 100000 + i;
}

/* The sequence number of a record made by make_rec, or -1 if its content is off. */
static int64_t rec_seq(const void *rec, size_t len)
{
	struct perf_event_header h;
	uint64_t w, seq;
	size_t i;

	memcpy(&h, rec, sizeof(h));
	if (h.size != len || len < 16)
		return -1;
	memcpy(&w, (const char *)rec + 8, 8);
	seq = (w - 1) / 100000;
	for (i = 1; i < len / 8; i++) {
		memcpy(&w, (const char *)rec + 8 * i, 8);
		if (w != seq * 100000 + i)
			return -1;
	}
	return (int64_t)seq;
}

static uint64_t recbuf[65536 / 8];

TEST(empty_ring)
{
	struct fake f;
	struct pc_ring r;
	const char *err = "unset";
	size_t len = 99;

	fake_init(&f, 4096, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	EXPECT_EQ(0ULL, pc_ring_available(&r));
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	EXPECT_EQ(NULL, err);
	EXPECT_EQ(0U, len);
	EXPECT_EQ(0, pc_ring_for_each(&r, NULL, NULL, &err));
	EXPECT_EQ(NULL, err);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(records_in_order)
{
	static const size_t sizes[] = { 16, 24, 40, 16, 64, 8 * 60 };
	struct fake f;
	struct pc_ring r;
	const char *err;
	const void *rec;
	size_t len, i;
	uint64_t total = 0;

	fake_init(&f, 4096, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	for (i = 0; i < 6; i++) {
		make_rec(recbuf, i, sizes[i]);
		fake_write(&f, recbuf, sizes[i]);
		total += sizes[i];
	}
	EXPECT_EQ(total, pc_ring_available(&r));
	for (i = 0; i < 6; i++) {
		rec = pc_ring_next(&r, &len, &err);
		ASSERT_NE(NULL, rec) TH_LOG("record %zu: %s", i, err ? err : "empty");
		EXPECT_EQ(sizes[i], len);
		EXPECT_EQ((int64_t)i, rec_seq(rec, len));
		/* in place, not copied */
		EXPECT_TRUE((const unsigned char *)rec >= f.data &&
			    (const unsigned char *)rec < f.data + f.size);
	}
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	EXPECT_EQ(NULL, err);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(records_parse_from_ring)
{
	/* The reader and the parser together: COMM then SAMPLE, both straddling. */
	struct pc_sample_format fmt = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						       PERF_SAMPLE_TIME,
					.sample_id_all = true };
	struct pc_sample_id id = { .pid = 7, .tid = 8, .time = 9 };
	static struct pc_record pr;
	struct fake f;
	struct pc_ring r;
	struct pc_rb b;
	const char *err;
	const void *rec;
	size_t len, s1, s2;

	fake_init(&f, 256, 256 - 16);
	pc_ring_attach(&r, f.page, f.data, f.size);
	pc_rb_init(&b, recbuf, sizeof(recbuf));
	pc_rb_begin(&b, PERF_RECORD_COMM, 0);
	pc_rb_u32(&b, 7); pc_rb_u32(&b, 8);
	pc_rb_string(&b, "ring-comm");
	pc_rb_sample_id(&b, &fmt, &id);
	s1 = pc_rb_end(&b);
	fake_write(&f, recbuf, s1);
	pc_rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	pc_rb_u64(&b, 0x401000); pc_rb_u32(&b, 7); pc_rb_u32(&b, 8); pc_rb_u64(&b, 10);
	s2 = pc_rb_end(&b);
	fake_write(&f, (unsigned char *)recbuf + s1, s2);

	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	ASSERT_EQ(0, pc_record_parse(&fmt, rec, len, &pr)) TH_LOG("%s", pr.error);
	EXPECT_EQ((uint32_t)PERF_RECORD_COMM, pr.type);
	EXPECT_STREQ("ring-comm", pr.comm.comm);
	EXPECT_EQ(9ULL, pr.sample_id.time);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	ASSERT_EQ(0, pc_record_parse(&fmt, rec, len, &pr)) TH_LOG("%s", pr.error);
	EXPECT_EQ((uint32_t)PERF_RECORD_SAMPLE, pr.type);
	EXPECT_EQ(0x401000ULL, pr.sample.ip);
	EXPECT_EQ(10ULL, pr.sample.time);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(straddling_record_reassembled)
{
	struct fake f;
	struct pc_ring r;
	const char *err;
	const void *rec;
	size_t len;

	/* 256-byte ring; a 48-byte record at offset 232: 24 bytes at the end, 24 at the start. */
	fake_init(&f, 256, 232);
	pc_ring_attach(&r, f.page, f.data, f.size);
	make_rec(recbuf, 42, 48);
	fake_write(&f, recbuf, 48);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	EXPECT_EQ(48U, len);
	EXPECT_EQ((const void *)r.copy, rec);
	EXPECT_EQ(42, rec_seq(rec, len));
	EXPECT_EQ(0, memcmp(recbuf, rec, 48));

	/* One that ends exactly at the end of the area is read in place. */
	f.head = r.tail = 256 * 5 - 32;
	f.page->data_tail = r.tail;
	make_rec(recbuf, 43, 32);
	fake_write(&f, recbuf, 32);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	EXPECT_EQ((const void *)(f.data + 224), rec);
	EXPECT_EQ(43, rec_seq(rec, len));

	/* A header-only record in the last 8 bytes, then the next at 0. */
	f.head = r.tail = 256 * 9 - 8;
	make_rec(recbuf, 0, 8);
	fake_write(&f, recbuf, 8);
	make_rec(recbuf, 44, 16);
	fake_write(&f, recbuf, 16);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	EXPECT_EQ(8U, len);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	EXPECT_EQ((const void *)f.data, rec);
	EXPECT_EQ(44, rec_seq(rec, len));
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(largest_record_straddling)
{
	/* header.size 65528, the largest multiple of 8 a u16 holds, across the end. */
	struct fake f;
	struct pc_ring r;
	const char *err;
	const void *rec;
	size_t len;

	fake_init(&f, 131072, 131072 - 1000);
	pc_ring_attach(&r, f.page, f.data, f.size);
	make_rec(recbuf, 7, 65528);
	fake_write(&f, recbuf, 65528);
	rec = pc_ring_next(&r, &len, &err);
	ASSERT_NE(NULL, rec) TH_LOG("%s", err);
	EXPECT_EQ(65528U, len);
	EXPECT_EQ(7, rec_seq(rec, len));
	EXPECT_GE(r.copy_len, (size_t)65528);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(data_tail_written_back_on_consume)
{
	struct fake f;
	struct pc_ring r;
	const char *err;
	size_t len;
	int i;

	fake_init(&f, 1024, 64);
	pc_ring_attach(&r, f.page, f.data, f.size);
	EXPECT_EQ(64ULL, r.tail);
	for (i = 0; i < 3; i++) {
		make_rec(recbuf, i, 32);
		fake_write(&f, recbuf, 32);
	}
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));
	/* Read but not released: the kernel still sees the old tail. */
	EXPECT_EQ(64ULL, f.page->data_tail);
	EXPECT_EQ(32ULL, pc_ring_available(&r));
	pc_ring_consume(&r);
	EXPECT_EQ(128ULL, f.page->data_tail);
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));
	pc_ring_consume(&r);
	EXPECT_EQ(160ULL, f.page->data_tail);
	EXPECT_EQ(f.head, f.page->data_tail);

	/* A read-only (overwrite) ring never writes data_tail. */
	make_rec(recbuf, 3, 32);
	fake_write(&f, recbuf, 32);
	r.overwrite = true;
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));
	pc_ring_consume(&r);
	EXPECT_EQ(160ULL, f.page->data_tail);
	pc_ring_unmap(&r);
	fake_free(&f);
}

/*
 * A producer and a consumer taking turns for many wraps: the producer only
 * writes where the consumer has released space (as the kernel does for a
 * writable mapping), the consumer checks every record.
 */
static void producer_consumer(struct __test_metadata *_metadata, uint64_t start,
			      uint64_t ring_size, unsigned int nrec)
{
	struct fake f;
	struct pc_ring r;
	unsigned int written = 0, read = 0;
	unsigned int seed = 12345;
	size_t next_size;

	fake_init(&f, ring_size, start);
	pc_ring_attach(&r, f.page, f.data, f.size);
	next_size = 16;
	while (read < nrec) {
		unsigned int burst = rand_r(&seed) % 4, k;

		/* produce while there is room */
		while (written < nrec &&
		       f.head + next_size - __atomic_load_n(&f.page->data_tail, __ATOMIC_ACQUIRE)
		       <= f.size) {
			make_rec(recbuf, written, next_size);
			fake_write(&f, recbuf, next_size);
			written++;
			next_size = 16 + 8 * (rand_r(&seed) % 60);
		}
		/* consume a few (or all) */
		for (k = 0; k <= burst || written == nrec; k++) {
			const char *err;
			const void *rec;
			size_t len;

			rec = pc_ring_next(&r, &len, &err);
			if (!rec) {
				ASSERT_EQ(NULL, err) TH_LOG("record %u: %s", read, err);
				break;
			}
			ASSERT_EQ((int64_t)read, rec_seq(rec, len))
				TH_LOG("record %u at tail %llu", read, (unsigned long long)r.tail);
			read++;
		}
		pc_ring_consume(&r);
	}
	EXPECT_EQ(f.head, r.tail);
	EXPECT_EQ(f.head, f.page->data_tail);
	EXPECT_GT(f.head - start, 100 * ring_size) TH_LOG("only %llu bytes went through",
							   (unsigned long long)(f.head - start));
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(positions_past_2_32_and_many_wraps)
{
	producer_consumer(_metadata, (1ULL << 32) - 4096 - 64, 4096, 20000);
}

TEST(positions_wrap_at_2_64)
{
	producer_consumer(_metadata, (uint64_t)0 - 8192 - 512, 8192, 20000);
}

TEST(malformed_header_in_ring)
{
	struct fake f;
	struct pc_ring r;
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 0 };
	const char *err;
	size_t len;

	fake_init(&f, 1024, 4096);
	pc_ring_attach(&r, f.page, f.data, f.size);

	/* size 0 */
	make_rec(recbuf, 0, 32);
	memcpy(recbuf, &h, sizeof(h));
	fake_write(&f, recbuf, 32);
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "smaller")) TH_LOG("%s", err);
	EXPECT_EQ(4096ULL, r.tail);	/* stuck, not advanced */

	/* size 12 */
	h.size = 12;
	fake_put(&f, 4096, &h, sizeof(h));
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "multiple of 8")) TH_LOG("%s", err);

	/* larger than what data_head covers */
	h.size = 40;
	fake_put(&f, 4096, &h, sizeof(h));
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "larger")) TH_LOG("%s", err);

	/* larger than the whole ring */
	h.size = 2048;
	fake_put(&f, 4096, &h, sizeof(h));
	f.head = 4096 + 2048;
	fake_publish(&f);
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "overrun")) TH_LOG("%s", err);

	/* fewer bytes than a header */
	f.head = 4096 + 4;
	fake_publish(&f);
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);

	/* data_head behind the tail: an "overrun" of nearly 2^64 */
	f.head = 4096 - 8;
	fake_publish(&f);
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	ASSERT_NE(NULL, err);

	/* for_each reports the same kind of thing */
	h.size = 0;
	fake_put(&f, 4096, &h, sizeof(h));
	f.head = 4096 + 32;
	fake_publish(&f);
	err = NULL;
	EXPECT_EQ(-EBADMSG, pc_ring_for_each(&r, NULL, NULL, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "smaller")) TH_LOG("%s", err);

	/* err may be NULL */
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, NULL));
	pc_ring_unmap(&r);
	fake_free(&f);
}

struct seen {
	int n;
	int64_t seq[4096];
	size_t bytes;
	int stop_after;
};

static int collect(const void *rec, size_t len, void *arg)
{
	struct seen *s = arg;

	if (s->n < 4096)
		s->seq[s->n] = rec_seq(rec, len);
	s->n++;
	s->bytes += len;
	return s->stop_after && s->n >= s->stop_after;
}

TEST(for_each_forward_does_not_consume)
{
	static struct seen s;
	struct fake f;
	struct pc_ring r;
	const char *err;
	size_t len;
	int i;

	fake_init(&f, 1024, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	for (i = 0; i < 5; i++) {
		make_rec(recbuf, i, 24);
		fake_write(&f, recbuf, 24);
	}
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));	/* seq 0 consumed locally */
	EXPECT_EQ(4, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(i + 1, s.seq[i]);
	EXPECT_EQ(24ULL, r.tail);
	EXPECT_EQ(0ULL, f.page->data_tail);

	memset(&s, 0, sizeof(s));
	s.stop_after = 2;
	EXPECT_EQ(2, pc_ring_for_each(&r, collect, &s, &err));
	EXPECT_EQ(2, s.n);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(forward_overwrite_ring)
{
	static struct seen s;
	struct fake f;
	struct pc_ring r;
	const char *err;
	int i;

	fake_init(&f, 512, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	r.overwrite = true;
	/* 16 records of 32 bytes: exactly full, nothing overwritten yet. */
	for (i = 0; i < 16; i++) {
		make_rec(recbuf, i, 32);
		fake_write(&f, recbuf, 32);
	}
	EXPECT_EQ(16, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	EXPECT_EQ(0, s.seq[0]);
	EXPECT_EQ(15, s.seq[15]);
	/* One more: the oldest record's start is gone. */
	make_rec(recbuf, 16, 32);
	fake_write(&f, recbuf, 32);
	err = NULL;
	EXPECT_EQ(-EBADMSG, pc_ring_for_each(&r, collect, &s, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "wrapped")) TH_LOG("%s", err);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(backward_ring_snapshot_not_wrapped)
{
	static struct seen s;
	struct fake f;
	struct pc_ring r;
	const char *err;
	size_t len;
	int i;

	fake_init(&f, 1024, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	r.backward = true;
	EXPECT_EQ(0, pc_ring_for_each(&r, collect, &s, &err));
	for (i = 0; i < 5; i++) {
		make_rec(recbuf, i, 16 + 8 * i);
		fake_write_backward(&f, recbuf, 16 + 8 * i);
	}
	EXPECT_EQ((uint64_t)0 - (16 + 24 + 32 + 40 + 48), f.page->data_head);
	EXPECT_EQ(5, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(i, s.seq[i]) TH_LOG("oldest first: index %d", i);
	/* pc_ring_next refuses a backward ring */
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	EXPECT_NE(NULL, err);

	/* A zero header inside the written range is an error, not the end. */
	memset(f.data + ((f.head + 48) & (f.size - 1)), 0, 8);	/* seq 3's header */
	err = NULL;
	EXPECT_EQ(-EBADMSG, pc_ring_for_each(&r, collect, &s, &err));
	ASSERT_NE(NULL, err);
	EXPECT_NE(NULL, strstr(err, "smaller")) TH_LOG("%s", err);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(backward_ring_snapshot_wrapped)
{
	static struct seen s;
	struct fake f;
	struct pc_ring r;
	unsigned int seed = 99, i, n = 300;
	size_t sizes[300], sum;
	const char *err;
	int got, k;

	fake_init(&f, 1024, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	r.backward = true;
	for (i = 0; i < n; i++) {
		sizes[i] = 16 + 8 * (rand_r(&seed) % 20);
		make_rec(recbuf, i, sizes[i]);
		fake_write_backward(&f, recbuf, sizes[i]);
	}
	got = pc_ring_for_each(&r, collect, &s, &err);
	ASSERT_GT(got, 0) TH_LOG("%s", err);
	/* The newest record is last, the ones before it are consecutive. */
	EXPECT_EQ((int64_t)n - 1, s.seq[got - 1]);
	for (k = 0; k < got; k++)
		EXPECT_EQ((int64_t)n - got + k, s.seq[k]) TH_LOG("index %d", k);
	/* All that fit wholly in data_size, and not one more. */
	for (sum = 0, k = 0; k < got; k++)
		sum += sizes[n - 1 - k];
	EXPECT_EQ(sum, s.bytes);
	EXPECT_LE(sum, (size_t)1024);
	EXPECT_GT(sum + sizes[n - 1 - got], (size_t)1024);

	/* Stop early: fn sees the oldest first. */
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	EXPECT_EQ(1, pc_ring_for_each(&r, collect, &s, &err));
	EXPECT_EQ((int64_t)n - got, s.seq[0]);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(backward_ring_exactly_full)
{
	static struct seen s;
	struct fake f;
	struct pc_ring r;
	const char *err;
	int i;

	fake_init(&f, 512, 0);
	pc_ring_attach(&r, f.page, f.data, f.size);
	r.backward = true;
	for (i = 0; i < 8; i++) {
		make_rec(recbuf, i, 64);
		fake_write_backward(&f, recbuf, 64);
	}
	EXPECT_EQ(8, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	EXPECT_EQ(0, s.seq[0]);
	EXPECT_EQ(7, s.seq[7]);
	/* One more of 64: the oldest is overwritten whole. */
	memset(&s, 0, sizeof(s));
	make_rec(recbuf, 8, 64);
	fake_write_backward(&f, recbuf, 64);
	EXPECT_EQ(8, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	EXPECT_EQ(1, s.seq[0]);
	EXPECT_EQ(8, s.seq[7]);
	/* One of 16: the oldest (seq 1) is now partly overwritten and dropped. */
	memset(&s, 0, sizeof(s));
	make_rec(recbuf, 9, 16);
	fake_write_backward(&f, recbuf, 16);
	EXPECT_EQ(8, pc_ring_for_each(&r, collect, &s, &err)) TH_LOG("%s", err);
	EXPECT_EQ(2, s.seq[0]);
	EXPECT_EQ(9, s.seq[7]);
	for (i = 0; i < 8; i++)
		EXPECT_NE(-1, s.seq[i]) TH_LOG("record %d content", i);
	pc_ring_unmap(&r);
	fake_free(&f);
}

TEST(unmap_is_safe_on_zeroed_and_attached)
{
	struct pc_ring r;
	struct fake f;
	const char *err;
	size_t len;

	memset(&r, 0, sizeof(r));
	pc_ring_unmap(&r);
	err = NULL;
	EXPECT_EQ(NULL, pc_ring_next(&r, &len, &err));
	EXPECT_NE(NULL, err);
	EXPECT_EQ(-EINVAL, pc_ring_for_each(&r, NULL, NULL, &err));

	fake_init(&f, 256, 240);
	pc_ring_attach(&r, f.page, f.data, f.size);
	make_rec(recbuf, 1, 32);
	fake_write(&f, recbuf, 32);
	ASSERT_NE(NULL, pc_ring_next(&r, &len, &err));	/* allocates the copy */
	EXPECT_NE(NULL, r.copy);
	pc_ring_unmap(&r);
	EXPECT_EQ(NULL, r.copy);
	fake_free(&f);
}

TEST_HARNESS_MAIN
