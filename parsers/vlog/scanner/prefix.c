/* Log line prefixes, matched as the regexes of parsers/vlog/prefix.py and executor_trace.py do.

Each regex is matched by hand: every quantifier in them can give back nothing that lets a
later part match (a digit run must be followed by a non-digit, a source by `]`), so at most
two alternatives (with or without a thread id) are tried, as the regex engine would.
tests/parsers/test_vlog_native.py checks these against the regexes on generated lines. */

#include "scanner.h"

/* Days from 1970-01-01 to (1970, month, day), as prefix._days computes them through
   calendar.timegm: month or day 0 is day 0, a month past 12 is day 0 (a ValueError there),
   a day past its month's end runs on into the next. */
static int64_t days_1970(int month, int day) {
    static const int before_month[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    if (month == 0 || day == 0 || month > 12)
        return 0;
    return before_month[month - 1] + day - 1;
}

static int two_digits(const char *s, Py_ssize_t at, Py_ssize_t size, int *value) {
    if (at + 2 > size || !is_digit(s[at]) || !is_digit(s[at + 1]))
        return 0;
    *value = (s[at] - '0') * 10 + (s[at + 1] - '0');
    return 1;
}

/* The end of the digit run at `at`. */
static Py_ssize_t skip_digits(const char *s, Py_ssize_t at, Py_ssize_t size) {
    while (at < size && is_digit(s[at]))
        at++;
    return at;
}

static Py_ssize_t skip_spaces(const char *s, Py_ssize_t at, Py_ssize_t size) {
    while (at < size && s[at] == ' ')
        at++;
    return at;
}

/* `[^\s\]]+:\d+\]` at `at`: the offset of its `]`, or -1. The source is the longest run of
   neither whitespace nor `]`; it must be followed by `]` and end in `:` and digits, with
   something before the colon. */
static Py_ssize_t match_source(const char *s, Py_ssize_t at, Py_ssize_t size) {
    Py_ssize_t end = at;
    while (end < size && !is_space((unsigned char)s[end]) && s[end] != ']')
        end++;
    if (end >= size || s[end] != ']')
        return -1;
    Py_ssize_t digits = end;
    while (digits > at && is_digit(s[digits - 1]))
        digits--;
    if (digits == end || digits - 1 <= at || s[digits - 1] != ':')
        return -1;
    return end;
}

/* `(?:(\d+) +)?SOURCE\]` (absl) or `(?:(\d+) )?SOURCE\]` (glog) at `at`: the offset of the
   `]`, or -1; thread_at and thread_end bound the thread's digits where it was taken. */
static Py_ssize_t match_thread_source(const char *s, Py_ssize_t at, Py_ssize_t size,
                                      int spaces, Py_ssize_t *thread_at, Py_ssize_t *thread_end) {
    Py_ssize_t digits_end = skip_digits(s, at, size);
    *thread_at = *thread_end = -1;
    if (digits_end > at && digits_end < size && s[digits_end] == ' ') {
        Py_ssize_t source = spaces ? skip_spaces(s, digits_end, size) : digits_end + 1;
        Py_ssize_t bracket = match_source(s, source, size);
        if (bracket >= 0) {
            *thread_at = at;
            *thread_end = digits_end;
            return bracket;
        }
    }
    return match_source(s, at, size);
}

static int64_t parse_digits(const char *s, Py_ssize_t at, Py_ssize_t end) {
    int64_t value = 0;
    for (; at < end; at++)
        value = value * 10 + (s[at] - '0');
    return value;
}

int match_absl_head(const char *s, Py_ssize_t size, AbslHead *head) {
    int month, day, hours, minutes;
    if (size < 1 || !is_severity((unsigned char)s[0]) || !two_digits(s, 1, size, &month) ||
        !two_digits(s, 3, size, &day) || size < 6 || s[5] != ' ' ||
        !two_digits(s, 6, size, &hours) || size < 9 || s[8] != ':' ||
        !two_digits(s, 9, size, &minutes) || size < 12 || s[11] != ':')
        return 0;
    Py_ssize_t seconds_end = skip_digits(s, 12, size);
    if (seconds_end == 12 || seconds_end >= size || s[seconds_end] != '.')
        return 0;
    Py_ssize_t frac = seconds_end + 1;
    if (frac + 7 > size || skip_digits(s, frac, frac + 6) != frac + 6 || s[frac + 6] != ' ')
        return 0;
    Py_ssize_t thread_at, thread_end;
    Py_ssize_t bracket = match_thread_source(s, skip_spaces(s, frac + 6, size), size, 1,
                                             &thread_at, &thread_end);
    if (bracket < 0 || bracket + 1 >= size || s[bracket + 1] != ' ')
        return 0;
    if (seconds_end - 12 > 12 || (thread_at >= 0 && thread_end - thread_at > MAX_DIGITS))
        return -1;
    int64_t days = (month == 0 && day == 0) ? 0 : days_1970(month, day);
    head->micros = ((days * 24 + hours) * 60 + minutes) * 60000000LL +
                   parse_digits(s, 12, seconds_end) * 1000000LL + parse_digits(s, frac, frac + 6);
    head->has_thread = thread_at >= 0;
    head->thread = head->has_thread ? parse_digits(s, thread_at, thread_end) : 0;
    head->message = bracket + 2;
    return 1;
}

/* prefix.ABSL: `[IWEF]\d\d\d\d \d\d:\d\d:\d+\.\d+ +(?:\d+ +)?SOURCE\]`. */
static int match_absl(const char *s, Py_ssize_t size) {
    int unused;
    if (!two_digits(s, 1, size, &unused) || !two_digits(s, 3, size, &unused) || size < 6 ||
        s[5] != ' ' || !two_digits(s, 6, size, &unused) || size < 9 || s[8] != ':' ||
        !two_digits(s, 9, size, &unused) || size < 12 || s[11] != ':')
        return 0;
    Py_ssize_t seconds_end = skip_digits(s, 12, size);
    if (seconds_end == 12 || seconds_end >= size || s[seconds_end] != '.')
        return 0;
    Py_ssize_t frac_end = skip_digits(s, seconds_end + 1, size);
    if (frac_end == seconds_end + 1 || frac_end >= size || s[frac_end] != ' ')
        return 0;
    Py_ssize_t thread_at, thread_end;
    return match_thread_source(s, skip_spaces(s, frac_end, size), size, 1,
                               &thread_at, &thread_end) >= 0;
}

/* prefix.GLOG_1X: `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWEF] (?:\d+ )?SOURCE\]`. */
static int match_glog(const char *s, Py_ssize_t size) {
    static const char shape[] = "dddd-dd-dd dd:dd:dd.";
    Py_ssize_t at;
    for (at = 0; shape[at]; at++) {
        if (at >= size)
            return 0;
        if (shape[at] == 'd' ? !is_digit(s[at]) : s[at] != shape[at])
            return 0;
    }
    Py_ssize_t frac_end = skip_digits(s, at, size);
    if (frac_end == at || frac_end + 4 > size || s[frac_end] != ':' || s[frac_end + 1] != ' ' ||
        !is_severity((unsigned char)s[frac_end + 2]) || s[frac_end + 3] != ' ')
        return 0;
    Py_ssize_t thread_at, thread_end;
    return match_thread_source(s, frac_end + 4, size, 0, &thread_at, &thread_end) >= 0;
}

int is_log_line(const char *s, Py_ssize_t size) {
    if (size < 1)
        return 0;
    if (is_severity((unsigned char)s[0]))
        return match_absl(s, size);
    if (is_digit(s[0]))
        return match_glog(s, size);
    return 0;
}
