// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_PHYS_ADDR (since Linux 4.13): the sample carries the
 * physical address of the data address the sample is about (its
 * PERF_SAMPLE_ADDR), in the same page at the same offset. Only a
 * privileged caller may ask for it (tests/privilege/sample_fields.c).
 *
 * The kernel (6.12 kernel/events/core.c: perf_prepare_sample, lines
 * 7898-7900 and 8017-8020, asks for ADDR implicitly; perf_virt_to_phys,
 * lines 7730-7763) translates a user address with get_user_page_fast_only
 * at the moment of the sample, and writes 0 where no page is mapped there.
 * A page-fault sample is taken when the fault begins, before the fault
 * is handled (arch/x86/mm/fault.c:1283, arch/arm64/mm/fault.c:591, before
 * the access checks; the same in 5.10): a fault on a page that is not yet
 * mapped has no physical address (0), while a write fault on a page that
 * is present but read-only has the page's.
 *
 * So the page is made present and locked (mlock), then read-only; a
 * write to it faults in user mode with the page mapped, the SIGSEGV
 * handler makes it writable again and the write is done. The page's
 * frame is read from /proc/self/pagemap (bits 0-54, shown to
 * CAP_SYS_ADMIN only) before and after: the sample's PHYS_ADDR is that
 * frame's address plus the offset of the faulting address in the page,
 * as the arch reports that address (pc_fault_sample_addr: s390 reports
 * the page, offset 0).
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "perfconf.h"
#include "work/faults.h"

#define PAGES 2
static const size_t offsets[PAGES] = { 0x568, 0x8 };

/* The frame number of the page at addr from /proc/self/pagemap; 0 when not shown. */
static int pagemap_pfn(const void *addr, uint64_t *pfn)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t entry;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n = pread(fd, &entry, sizeof(entry), (off_t)((uintptr_t)addr / ps * sizeof(entry)));
	int err = n == sizeof(entry) ? 0 : n < 0 ? -errno : -EIO;

	close(fd);
	if (err)
		return err;
	if (!(entry >> 63))
		return -ENODATA;	/* not present */
	*pfn = entry & ((1ULL << 55) - 1);
	return 0;
}

struct guarded_pages {
	unsigned char *base;
	size_t ps;
	uint64_t pfn[PAGES];
};

/* Map, fill and lock PAGES pages, note their frames, make them read-only. */
static int guard_pages(struct guarded_pages *g)
{
	g->ps = (size_t)sysconf(_SC_PAGESIZE);
	g->base = mmap(NULL, PAGES * g->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED)
		return -errno;
	madvise(g->base, PAGES * g->ps, MADV_NOHUGEPAGE);
	memset(g->base, 0xa5, PAGES * g->ps);
	if (mlock(g->base, PAGES * g->ps))
		return -errno;
	for (size_t k = 0; k < PAGES; k++) {
		int err = pagemap_pfn(g->base + k * g->ps, &g->pfn[k]);

		if (err)
			return err;
	}
	return pc_faults_guard(g->base, PAGES * g->ps, g->ps);	/* one page at a time */
}

/* The address a sample of the write to page k reports (pc_fault_sample_addr). */
static uint64_t written(const struct guarded_pages *g, size_t k)
{
	return pc_fault_sample_addr(g->base + k * g->ps + offsets[k]);
}

static void unguard_pages(struct guarded_pages *g)
{
	pc_faults_unguard();
	munmap(g->base, PAGES * g->ps);
}

static struct perfconf_attr phys_attr(void)
{
	struct perfconf_attr attr = pc_attr_sw_sampling(PERF_COUNT_SW_PAGE_FAULTS, 1,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR);

	attr.exclude_kernel = 1;
	return attr;
}

#define OPEN_PHYS(cap, attr) do { \
	int e_ = pc_capture_open(cap, attr, 0, -1); \
	if (e_ == -EINVAL && pc_kernel()->kver < PC_KVER(4, 13)) \
		SKIP(return, "PERF_SAMPLE_PHYS_ADDR is new in 4.13"); \
	ASSERT_ERRNO(0, -e_) TH_LOG("PERF_SAMPLE_PHYS_ADDR on a page-fault event, as root"); \
} while (0)

/*
 * A write fault on a present, read-only page: the sample's PHYS_ADDR is
 * the page's frame (from pagemap) plus the offset in the page, for each
 * of two pages, which have frames of their own.
 */
TEST(present_page_is_its_physical_address)
{
	struct perfconf_attr attr = phys_attr();
	struct guarded_pages g;
	struct pc_capture cap;
	size_t seen[PAGES] = { 0 };

	int err = guard_pages(&g);
	if (err == -EPERM || err == -EACCES)
		BLOCKED("mlock or pagemap refused here (%s)", pc_errno_name(-err));
	ASSERT_ERRNO(0, -err) TH_LOG("mapping, locking and guarding the pages");
	for (size_t k = 0; k < PAGES; k++) {
		if (!g.pfn[k])
			BLOCKED("/proc/self/pagemap shows no frame numbers to this process");
	}
	ASSERT_NE(g.pfn[0], g.pfn[1]);
	/* once unmeasured: the handler's code and stack are there */
	for (size_t k = 0; k < PAGES; k++)
		pc_fault_write(g.base + k * g.ps + offsets[k]);
	ASSERT_EQ(0, pc_faults_reguard());
	OPEN_PHYS(&cap, &attr);
	ASSERT_EQ(0, pc_enable(cap.fd));
	pc_fault_write(g.base + offsets[0]);
	pc_fault_write(g.base + g.ps + offsets[1]);
	ASSERT_EQ(0, pc_disable(cap.fd));
	ASSERT_CAPTURE_READ(&cap);
	pc_fault_sample_addr_observe();
	for (size_t k = 0; k < PAGES; k++) {
		uint64_t after;

		ASSERT_EQ(0, pagemap_pfn(g.base + k * g.ps, &after));
		ASSERT_EQ(g.pfn[k], after) TH_LOG("page %zu moved while locked", k);
	}
	for (size_t i = 0; i < pc_capture_count(&cap, PERF_RECORD_SAMPLE); i++) {
		const struct pc_sample *s = pc_capture_sample(&cap, i);
		size_t k = s->addr == written(&g, 0) ? 0 : s->addr == written(&g, 1) ? 1 : PAGES;

		ASSERT_GT(PAGES, k) TH_LOG("sample %zu at %#llx, not at a written address", i,
					   (unsigned long long)s->addr);
		seen[k]++;
		uint64_t offset = written(&g, k) - (uintptr_t)(g.base + k * g.ps);

		EXPECT_EQ(g.pfn[k] * g.ps + offset, s->phys_addr)
			TH_LOG("sample %zu (page %zu, frame %#llx, offset %#llx): phys_addr %#llx", i, k,
			       (unsigned long long)g.pfn[k], (unsigned long long)offset,
			       (unsigned long long)s->phys_addr);
		EXPECT_TRUE(pc_fault_ip(s->ip)) TH_LOG("ip %#llx", (unsigned long long)s->ip);
		EXPECT_EQ(getpid(), s->pid);
		EXPECT_EQ(syscall(SYS_gettid), s->tid);
	}
	/* the protection fault; a kernel may take one more write-protect fault after it */
	for (size_t k = 0; k < PAGES; k++) {
		EXPECT_LE(1, seen[k]) TH_LOG("page %zu", k);
		EXPECT_GE(2, seen[k]) TH_LOG("page %zu", k);
	}
	pc_capture_close(&cap);
	unguard_pages(&g);
}

/*
 * A fault on a page not mapped yet: the sample is taken before the fault
 * maps one, so there is no physical address: 0. ADDR is still the address.
 */
TEST(unmapped_page_is_zero)
{
	struct perfconf_attr attr = phys_attr();
	struct pc_capture cap;
	struct pc_faults f;

	OPEN_PHYS(&cap, &attr);
	CAPTURE_FAULT_SAMPLES(&cap, &f, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct pc_sample *s = pc_capture_sample(&cap, k);
		uint64_t pfn;

		EXPECT_EQ(pc_faults_addr(&f, 1 + k), s->addr);
		EXPECT_EQ(0, s->phys_addr) TH_LOG("sample %zu", k);
		/* the control: the page is there now */
		EXPECT_EQ(0, pagemap_pfn((void *)(uintptr_t)s->addr, &pfn));
	}
	pc_faults_unmap(&f);
	pc_capture_close(&cap);
}

TEST_HARNESS_MAIN
