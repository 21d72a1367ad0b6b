/* idn.h - IDNA (UTS #46) for host names, the only place that calls ICU's
 * uidna API. */
#ifndef XIRI_IDN_H
#define XIRI_IDN_H

#include "buf.h"
#include "ctx.h"

/* The options xiri uses everywhere (RFC 3987 3.1 with today's IDNA):
 * non-transitional processing, CheckBidi, CheckJoiners, STD3 rules. */
#define IDN_DEFAULT_OPTIONS 0u
/* For conformance tests: leave out the STD3 rules. */
#define IDN_NO_STD3 0x1u

struct idn;

/* Open and close a UTS #46 object with IDN_* options. */
enum xiri_status idn_open(unsigned options, struct idn **out);
void idn_close(struct idn *idn);
/* The context's object, opened on first use with IDN_DEFAULT_OPTIONS. */
enum xiri_status idn_for_ctx(struct xiri_ctx *ctx, struct idn **out);

/* UTS #46 ToASCII / ToUnicode of a UTF-8 domain name.  The result is
 * appended to out even when there are errors; *errors receives ICU's
 * UIDNA_ERROR_* bits (0 when the conversion is valid).  Returns XIRI_OK
 * unless ICU itself failed or memory ran out. */
enum xiri_status idn_to_ascii(struct idn *idn, const char *s, size_t n,
                              struct buf *out, uint32_t *errors);
enum xiri_status idn_to_unicode(struct idn *idn, const char *s, size_t n,
                                struct buf *out, uint32_t *errors);

/* WHATWG URL 3.5, "domain to ASCII" (beStrict false): whether browsers
 * reject the UTF-8 domain name s[0..n) (already percent-decoded): UTS #46
 * ToASCII with CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off
 * (the context's second object, without the STD3 rules) fails, or gives
 * the empty string, or one with a forbidden domain code point (a space,
 * '%', ...).  Hyphens where DNS forbids them, '_', empty labels and long
 * names pass.  *reject receives the answer. */
enum xiri_status idn_browsers_reject(struct xiri_ctx *ctx, const char *s,
                                     size_t n, bool *reject);
/* The same, and the ASCII domain browsers get appended to out (what is
 * appended when they reject it is not to be used). */
enum xiri_status idn_browsers_ascii(struct xiri_ctx *ctx, const char *s,
                                    size_t n, struct buf *out, bool *reject);

/* Describe UIDNA_ERROR_* bits in words ("label starts with a hyphen, ...")
 * into out (always NUL-terminated). */
void idn_describe_errors(uint32_t errors, char *out, size_t size);

#endif
