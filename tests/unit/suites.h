/* suites.h - one register function per library module's suite. */
#ifndef XIRI_TEST_SUITES_H
#define XIRI_TEST_SUITES_H

int suite_status_register(void);
int suite_chars_register(void);
int suite_parse_register(void);
int suite_resolve_register(void);
int suite_map_register(void);
int suite_idn_register(void);
int suite_props_register(void);
int suite_check_register(void);
int suite_normalize_register(void);
int suite_display_register(void);
int suite_zld_register(void);
int suite_oom_register(void);
int suite_registry_register(void);
int suite_walk_register(void);
int suite_shapes_register(void);
int suite_htmlref_register(void);
int suite_linkcheck_register(void);
int suite_mojibake_register(void);
int suite_threads_register(void);

#endif
