// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_DATA_PAGE_SIZE and PERF_SAMPLE_CODE_PAGE_SIZE (since Linux
 * 5.11): the size of the page that maps the sample's data address (its
 * PERF_SAMPLE_ADDR) and of the page that maps its instruction pointer, as
 * the page tables map them: the base page on an ordinary mapping, the
 * huge page where a transparent huge page backs the address.
 *
 * The kernel (6.12 kernel/events/core.c: perf_prepare_sample, lines
 * 7896-7900 and 8038-8046, asks for ADDR and IP implicitly;
 * perf_get_pgtable_size, lines 7768-7826, walks the page tables at the
 * moment of the sample: a PMD leaf gives pmd_leaf_size, a PTE
 * __pte_leaf_size, and nothing mapped gives 0). A page-fault sample is
 * taken when the fault begins, before the fault maps anything
 * (arch/x86/mm/fault.c:1283, arch/arm64/mm/fault.c:591): a first touch
 * has no data page yet (0), while a write fault on a page that is present
 * but read-only sees the page that is there. So the data pages here are
 * made present, then read-only, and written: the SIGSEGV handler makes
 * the page writable again. The sample's ADDR is the written address as
 * the arch reports it (pc_fault_sample_addr: the byte, or on s390 the page).
 *
 * The base page is sysconf(_SC_PAGESIZE); the huge page is the PMD size of
 * /sys/kernel/mm/transparent_hugepage/hpage_pmd_size (2 MiB with 4 KiB
 * pages), on an aligned anonymous mapping with madvise(MADV_HUGEPAGE),
 * checked in /proc/self/smaps (AnonHugePages) to be backed by one; SKIP
 * where transparent huge pages are off or none backs it. On arm64 a code
 * page may be mapped with contiguous PTEs (a large folio of the binary's
 * file), whose leaf size is that of the run (CONT_PTE_SIZE): accepted there.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>

#include "perfconf.h"
#include "work/mapping.h"
#include "work/faults.h"

static struct perfconf_attr size_attr(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
		PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE);

	attr.exclude_kernel = 1;
	return attr;
}

#define OPEN_SIZES(cap, attr) do { \
	int e_ = pc_capture_open(cap, attr, 0, -1); \
	if (e_ == -EINVAL && pc_kernel()->kver < PC_KVER(5, 11)) \
		SKIP(return, "PERF_SAMPLE_DATA_PAGE_SIZE and CODE_PAGE_SIZE are new in 5.11"); \
	ASSERT_ERRNO(0, -e_); \
} while (0)

/* Write once at p with the capture enabled: the samples at p. */
static void write_sampled(struct __test_metadata *_metadata, struct pc_capture *cap,
			  unsigned char *p)
{
	ASSERT_EQ(0, pc_enable(cap->fd));
	pc_fault_write(p);
	ASSERT_EQ(0, pc_disable(cap->fd));
	ASSERT_CAPTURE_READ(cap);
}

/*
 * An ordinary anonymous page, present: DATA_PAGE_SIZE is the base page,
 * CODE_PAGE_SIZE that of the page pc_fault_write() runs in.
 */
TEST(base_page)
{
	struct perfconf_attr attr = size_attr();
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
	struct pc_capture cap;
	unsigned char *page = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, page);
	madvise(page, ps, MADV_NOHUGEPAGE);
	pc_fault_write(page);			/* present, and the path warm */
	ASSERT_EQ(0, pc_faults_guard(page, ps, ps));
	pc_fault_write(page + 8);		/* the handler's path warm */
	ASSERT_EQ(0, pc_faults_reguard());
	OPEN_SIZES(&cap, &attr);
	write_sampled(_metadata, &cap, page + 0x100);
	pc_fault_sample_addr_observe();
	size_t n = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_LE(1, n);
	EXPECT_GE(2, n) TH_LOG("the protection fault, and perhaps a write-protect fault after it");
	for (size_t k = 0; k < n; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_EQ(pc_fault_sample_addr(page + 0x100), s->addr);
		EXPECT_TRUE(pc_fault_ip(s->ip));
		EXPECT_EQ(ps, s->data_page_size) TH_LOG("sample %zu", k);
		EXPECT_TRUE(pc_code_page_size_ok(s->code_page_size))
			TH_LOG("sample %zu: code_page_size %llu, the base page %llu", k,
			       (unsigned long long)s->code_page_size, (unsigned long long)ps);
	}
	pc_capture_close(&cap);
	pc_faults_unguard();
	munmap(page, ps);
}

/* The first touch of a page: nothing maps it when the sample is taken (0). */
TEST(unmapped_data_page_is_zero)
{
	struct perfconf_attr attr = size_attr();
	struct pc_capture cap;
	struct pc_faults f;

	OPEN_SIZES(&cap, &attr);
	CAPTURE_FAULT_SAMPLES(&cap, &f, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_EQ(pc_faults_addr(&f, 1 + k), s->addr);
		EXPECT_EQ(0, s->data_page_size) TH_LOG("sample %zu", k);
		EXPECT_TRUE(pc_code_page_size_ok(s->code_page_size))
			TH_LOG("sample %zu: code_page_size %llu", k, (unsigned long long)s->code_page_size);
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

/* A number from a sysfs file; 0 when there is none. */
static uint64_t sysfs_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *fp = fopen(path, "r");

	if (fp) {
		if (fscanf(fp, "%llu", &v) != 1)
			v = 0;
		fclose(fp);
	}
	return v;
}

/* AnonHugePages of the mapping that starts at addr, in bytes; -errno. */
static long long anon_huge_bytes(const void *addr)
{
	unsigned long start, end;
	char line[512];
	long long kb = -ENOENT;
	bool in = false;
	FILE *fp = fopen("/proc/self/smaps", "r");

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in = start == (uintptr_t)addr;	/* a mapping's first line */
		else if (in && sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			break;
	}
	fclose(fp);
	return kb < 0 ? kb : kb * 1024;
}

/*
 * An aligned anonymous mapping of one PMD with MADV_HUGEPAGE, backed by a
 * transparent huge page: DATA_PAGE_SIZE is the PMD size. The base page
 * beside it (the control) is still the base page.
 */
TEST(transparent_huge_page)
{
	struct perfconf_attr attr = size_attr();
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t huge = sysfs_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	struct pc_capture cap;

	DEPENDS_ON("thp");	/* whether THP is built and enabled (PREEMPT_RT kernels leave it out) */
	if (!huge)
		SKIP(return, "no transparent huge pages in this kernel");
	unsigned char *raw = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, raw);
	unsigned char *base = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	if (base > raw)
		munmap(raw, base - raw);
	if (raw + 2 * huge > base + huge)
		munmap(base + huge, raw + 2 * huge - (base + huge));
	if (madvise(base, huge, MADV_HUGEPAGE)) {
		int err = errno;

		munmap(base, huge);
		SKIP(return, "madvise(MADV_HUGEPAGE): %s", pc_errno_name(err));
	}
	pc_fault_write(base);
	long long backed = anon_huge_bytes(base);
	if (backed < (long long)huge) {
		munmap(base, huge);
		SKIP(return, "no transparent huge page backs the mapping (AnonHugePages %lld bytes; "
		     "THP off or memory fragmented)", backed);
	}
	ASSERT_EQ(0, pc_faults_guard(base, huge, huge));	/* all of it: the PMD stays whole */
	pc_fault_write(base + 8);		/* the handler's path warm */
	ASSERT_EQ(0, pc_faults_reguard());
	OPEN_SIZES(&cap, &attr);
	write_sampled(_metadata, &cap, base + huge / 2 + 0x40);
	pc_fault_sample_addr_observe();
	ASSERT_LE((long long)huge, anon_huge_bytes(base)) TH_LOG("the huge page was split meanwhile");
	size_t n = pc_capture_count(&cap, PERF_RECORD_SAMPLE);
	EXPECT_LE(1, n);
	EXPECT_GE(2, n);
	for (size_t k = 0; k < n; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);

		EXPECT_EQ(pc_fault_sample_addr(base + huge / 2 + 0x40), s->addr);
		EXPECT_EQ(huge, s->data_page_size) TH_LOG("sample %zu: %llu, the base page %llu", k,
							  (unsigned long long)s->data_page_size,
							  (unsigned long long)ps);
		EXPECT_TRUE(pc_code_page_size_ok(s->code_page_size));
	}
	pc_capture_close(&cap);
	pc_faults_unguard();
	munmap(base, huge);
}

TEST_HARNESS_MAIN
