/*
 * settings.h: the settings mirage-eval --target chose for a reliability
 * target, one per chain size (its -F tsv table), as mirage-advise
 * --target --settings applies them.
 */
#ifndef MG_SETTINGS_H
#define MG_SETTINGS_H

#include "base/status.h"
#include "live/drive.h"

/*
 * mg_settings_read: the rows of path for target (0 to 1) into
 * dr->chosen: with dr->plan the planner's prices; without, the rule
 * recommended for each size (the scheduler estimate's margin, a fixed
 * lead; a model or the planner as another's method).  A setting that fell
 * short of the target in a fold is said through dr->sl.warn.  0, or
 * with d naming the file and line: MG_EIO, MG_EFORMAT (a bad row, a
 * NUL, a number not finite or out of range, two settings for a size,
 * nothing chosen), MG_ETRUNC (cut short), MG_ETYPE (not such a table),
 * MG_EINVAL (a directory; another target's or handing-over framing's).
 */
int mg_settings_read(struct mg_drive *dr, const char *path, double target,
    struct mg_diag *d);

#endif /* MG_SETTINGS_H */
