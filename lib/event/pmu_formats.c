// SPDX-License-Identifier: GPL-2.0
/* Which PMU formats use which attr word (see pmu_formats.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/observe.h"
#include "event/pmu.h"
#include "event/pmu_formats.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void append(char *buf, size_t len, size_t *used, const char *pmu, const char *name)
{
	int n = snprintf(buf + *used, len - *used, "%s%s:%s", *used ? "," : "", pmu, name);

	if (n > 0 && (size_t)n < len - *used)
		*used += (size_t)n;
}

int pc_pmu_formats_in_word(int word, char *buf, size_t len)
{
	char **pmus = pc_pmu_list();
	size_t used = 0;
	int count = 0;

	buf[0] = '\0';
	for (size_t i = 0; pmus && pmus[i] && count >= 0; i++) {
		char dir[512];
		struct dirent **entries;

		snprintf(dir, sizeof(dir), "%s/%s/format", PC_PMU_SYSFS, pmus[i]);
		int n = scandir(dir, &entries, NULL, by_name);
		for (int k = 0; k < n; k++) {
			struct pc_pmu_format f;
			const char *name = entries[k]->d_name;

			if (name[0] != '.' && count >= 0) {
				if (pc_pmu_format(pmus[i], name, &f)) {
					used = 0;
					append(buf, len, &used, pmus[i], name);
					count = -EINVAL;
				} else if (f.word == word) {
					append(buf, len, &used, pmus[i], name);
					count++;
				}
			}
			free(entries[k]);
		}
		if (n >= 0)
			free(entries);
	}
	pc_strv_free(pmus);
	if (count == 0)
		snprintf(buf, len, "none");
	return count;
}

int pc_observe_formats_in_word(int word)
{
	char list[2048];
	int n = pc_pmu_formats_in_word(word, list, sizeof(list));

	pc_observe("formats", "%s", list);
	return n;
}
