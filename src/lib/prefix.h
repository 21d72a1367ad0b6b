/* prefix.h - every name the library's files share with each other but
 * not with its users gets the prefix "xiri__" (ISO C 7.1.3 leaves names
 * with a leading underscore to the implementation, so not "_xiri_").
 *
 * The shared library exports only xiri_* (libtool -export-symbols-regex,
 * Makefile.am), but the static one, libxiri.a, holds every external name
 * of its objects: without this, a program linking it statically and
 * defining a function of its own called buf_init or mem_alloc would get
 * a duplicate symbol, or worse, one of the two silently.  The compiler
 * reads this file before each source file of the library and of the unit
 * tests (-include, Makefile.am); tests/install/run.sh fails when
 * libxiri.a defines a global name that does not start with "xiri_":
 * add the new name here.  Sorted. */
#ifndef XIRI_PREFIX_H
#define XIRI_PREFIX_H

#define buf_append xiri__buf_append
#define buf_append_grow xiri__buf_append_grow
#define buf_free xiri__buf_free
#define buf_init xiri__buf_init
#define buf_put_pct xiri__buf_put_pct
#define buf_putc xiri__buf_putc
#define buf_puts xiri__buf_puts
#define buf_reserve xiri__buf_reserve
#define buf_take xiri__buf_take
#define chars_ascii xiri__chars_ascii
#define check_run xiri__check_run
#define codes_diag xiri__codes_diag
#define codes_get xiri__codes_get
#define codes_rebase_bytes xiri__codes_rebase_bytes
#define cp_hides_in_iri xiri__cp_hides_in_iri
#define cp_is_bidi_format xiri__cp_is_bidi_format
#define cp_is_iprivate xiri__cp_is_iprivate
#define cp_is_leiri_extra xiri__cp_is_leiri_extra
#define cp_is_ucschar xiri__cp_is_ucschar
#define css_scan_init xiri__css_scan_init
#define css_url_next xiri__css_url_next
#define describe_cp xiri__describe_cp
#define error_set xiri__error_set
#define html_auth_check xiri__html_auth_check
#define html_auth_check_value xiri__html_auth_check_value
#define html_auth_find xiri__html_auth_find
#define html_auth_free xiri__html_auth_free
#define html_auth_init xiri__html_auth_init
#define html_auth_run xiri__html_auth_run
#define html_trim_begin xiri__html_trim_begin
#define html_trim_check xiri__html_trim_check
#define html_trim_end xiri__html_trim_end
#define html_trim_forward xiri__html_trim_forward
#define html_url_drive_relative xiri__html_url_drive_relative
#define html_url_hidden_host xiri__html_url_hidden_host
#define html_url_host_form xiri__html_url_host_form
#define html_url_host_missing xiri__html_url_host_missing
#define html_url_host_missing_diag xiri__html_url_host_missing_diag
#define html_url_needs_prepare xiri__html_url_needs_prepare
#define html_url_opaque_base xiri__html_url_opaque_base
#define html_url_opaque_path xiri__html_url_opaque_path
#define html_url_path_end xiri__html_url_path_end
#define html_url_prepare xiri__html_url_prepare
#define html_url_raw_offset xiri__html_url_raw_offset
#define html_url_reading_differs xiri__html_url_reading_differs
#define html_url_rejected xiri__html_url_rejected
#define html_url_rfc_form xiri__html_url_rfc_form
#define html_url_special xiri__html_url_special
#define html_url_trim xiri__html_url_trim
#define htmlref_decode xiri__htmlref_decode
#define idn_browsers_ascii xiri__idn_browsers_ascii
#define idn_browsers_reject xiri__idn_browsers_reject
#define idn_close xiri__idn_close
#define idn_describe_errors xiri__idn_describe_errors
#define idn_for_ctx xiri__idn_for_ctx
#define idn_open xiri__idn_open
#define idn_to_ascii xiri__idn_to_ascii
#define idn_to_unicode xiri__idn_to_unicode
#define input_convert xiri__input_convert
#define input_cr_from xiri__input_cr_from
#define input_discard xiri__input_discard
#define input_free xiri__input_free
#define input_line_col xiri__input_line_col
#define input_mark_masked xiri__input_mark_masked
#define input_meta_encoding xiri__input_meta_encoding
#define input_new xiri__input_new
#define input_nul_count xiri__input_nul_count
#define input_orig_offset xiri__input_orig_offset
#define input_prescan xiri__input_prescan
#define input_read_as_html xiri__input_read_as_html
#define input_same_encoding xiri__input_same_encoding
#define input_sniff xiri__input_sniff
#define input_window xiri__input_window
#define ipv4_is_valid xiri__ipv4_is_valid
#define ipv6_is_valid xiri__ipv6_is_valid
#define ipvfuture_is_valid xiri__ipvfuture_is_valid
#define linkcheck_cp1252 xiri__linkcheck_cp1252
#define linkcheck_plain xiri__linkcheck_plain
#define linkcheck_plain_class xiri__linkcheck_plain_class
#define linkcheck_plain_split xiri__linkcheck_plain_split
#define linkcheck_query_in_document_encoding \
    xiri__linkcheck_query_in_document_encoding
#define linkcheck_run xiri__linkcheck_run
#define linkcheck_run_path xiri__linkcheck_run_path
#define mem_alloc xiri__mem_alloc
#define mem_fail_after xiri__mem_fail_after
#define mem_fail_reset xiri__mem_fail_reset
#define mem_failures xiri__mem_failures
#define mem_free xiri__mem_free
#define mem_realloc xiri__mem_realloc
#define mem_strndup xiri__mem_strndup
#define moji_cp1252_byte xiri__moji_cp1252_byte
#define moji_cut xiri__moji_cut
#define moji_next xiri__moji_next
#define moji_repair xiri__moji_repair
#define moji_scan_init xiri__moji_scan_init
#define moji_scan_next xiri__moji_scan_next
#define path_remove_dots xiri__path_remove_dots
#define pct_iri_allowed xiri__pct_iri_allowed
#define pct_normalize xiri__pct_normalize
#define pct_octet xiri__pct_octet
#define pseudo_attr_decode xiri__pseudo_attr_decode
#define pseudo_attr_next xiri__pseudo_attr_next
#define ref_parse xiri__ref_parse
#define ref_recompose xiri__ref_recompose
#define ref_split xiri__ref_split
#define registry_entry_at xiri__registry_entry_at
#define registry_find_attr xiri__registry_find_attr
#define registry_find_content xiri__registry_find_content
#define registry_find_pi xiri__registry_find_pi
#define registry_mark xiri__registry_mark
#define registry_notice xiri__registry_notice
#define registry_rollback xiri__registry_rollback
#define registry_shape_from_name xiri__registry_shape_from_name
#define registry_shape_list xiri__registry_shape_list
#define resolve_base_init xiri__resolve_base_init
#define resolve_parsed xiri__resolve_parsed
#define resolve_ref xiri__resolve_ref
#define scheme_default_port xiri__scheme_default_port
#define scheme_is xiri__scheme_is
#define scheme_is_dns xiri__scheme_is_dns
#define scheme_mailto_address xiri__scheme_mailto_address
#define scheme_is_special xiri__scheme_is_special
#define scheme_prefix_len xiri__scheme_prefix_len
#define scheme_query_in_document_encoding xiri__scheme_query_in_document_encoding
#define scheme_whatwg xiri__scheme_whatwg
#define shape_split xiri__shape_split
#define shape_split_css xiri__shape_split_css
#define srcset_check xiri__srcset_check
#define tag_find_end_start xiri__tag_find_end_start
#define tag_find_start xiri__tag_find_start
#define tag_find_start_html xiri__tag_find_start_html
#define tag_guard_construct_end xiri__tag_guard_construct_end
#define tag_guard_in_tag xiri__tag_guard_in_tag
#define tag_guard_init xiri__tag_guard_init
#define tag_guard_resume xiri__tag_guard_resume
#define tag_guard_scan xiri__tag_guard_scan
#define tag_html_text_element xiri__tag_html_text_element
#define tag_html_text_element_z xiri__tag_html_text_element_z
#define tag_log_find xiri__tag_log_find
#define tag_log_trim xiri__tag_log_trim
#define tag_next_attr xiri__tag_next_attr
#define to_uri_append xiri__to_uri_append
#define to_uri_host_maps xiri__to_uri_host_maps
#define to_uri_needs_idna xiri__to_uri_needs_idna
#define to_iri_append xiri__to_iri_append
#define uni_close xiri__uni_close
#define uni_direction xiri__uni_direction
#define uni_bidi_scan xiri__uni_bidi_scan
#define uni_bidi_well_formed xiri__uni_bidi_well_formed
#define uni_bidi_parts xiri__uni_bidi_parts
#define uni_encodable xiri__uni_encodable
#define uni_encode_query xiri__uni_encode_query
#define uni_encode_text xiri__uni_encode_text
#define uni_encoding_is_latin1 xiri__uni_encoding_is_latin1
#define uni_guess_legacy xiri__uni_guess_legacy
#define uni_is_assigned xiri__uni_is_assigned
#define uni_is_control xiri__uni_is_control
#define uni_is_noncharacter xiri__uni_is_noncharacter
#define uni_is_normalized xiri__uni_is_normalized
#define uni_normalize xiri__uni_normalize
#define uni_query_encoding xiri__uni_query_encoding
#define uni_spoof_label xiri__uni_spoof_label
#define uni_delimiter_lookalike xiri__uni_delimiter_lookalike
#define uni_nfc_boundary_before xiri__uni_nfc_boundary_before
#define uni_nfc_ascii xiri__uni_nfc_ascii
#define uni_is_mark xiri__uni_is_mark
#define uni_passes_for_delimiter xiri__uni_passes_for_delimiter
#define uni_is_punct_or_symbol xiri__uni_is_punct_or_symbol
#define utf8_decode xiri__utf8_decode
#define utf8_encode xiri__utf8_encode
#define utf8_may_be_rtl xiri__utf8_may_be_rtl
#define walk_backstops xiri__walk_backstops
#define walk_guessed_head xiri__walk_guessed_head
#define walk_html_prescan xiri__walk_html_prescan
#define walk_nul_count xiri__walk_nul_count
#define walk_rendered xiri__walk_rendered
#define walk_settled xiri__walk_settled

#endif
