#include <arpa/inet.h>
#include <fcntl.h>
#include <maxminddb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// glibc has it since 2.27; declared here because the system headers show it only
/// with _GNU_SOURCE, which a module header cannot set for them.
extern int memfd_create(const char *name, unsigned int flags);

/// Opens a private copy of the database at `path`: the file's bytes are copied into an
/// anonymous memory file, which libmaxminddb maps. libmaxminddb maps the file it opens
/// shared, so an operator's in-place rewrite (`cp new.mmdb db.mmdb`) would change the
/// bytes under every lookup and, once the file is shorter, end the process with SIGBUS;
/// the copy is immune. MMDB_SUCCESS or libmaxminddb's error code.
static inline int biqli_mmdb_open_private(const char *path, MMDB_s *db) {
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return MMDB_FILE_OPEN_ERROR;
    int memory = memfd_create("biqli-geoip", 1 /* MFD_CLOEXEC */);
    if (memory < 0) {
        close(in);
        return MMDB_OUT_OF_MEMORY_ERROR;
    }
    char buffer[65536];
    ssize_t n;
    while ((n = read(in, buffer, sizeof buffer)) > 0) {
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(memory, buffer + done, (size_t)(n - done));
            if (w <= 0) {
                close(in);
                close(memory);
                return MMDB_IO_ERROR;
            }
            done += w;
        }
    }
    close(in);
    if (n < 0) {
        close(memory);
        return MMDB_IO_ERROR;
    }
    char copy[64];
    snprintf(copy, sizeof copy, "/proc/self/fd/%d", memory);
    int rc = MMDB_open(copy, MMDB_MODE_MMAP, db);
    close(memory);  // the mapping keeps the memory
    return rc;
}

/// The ISO 3166-1 alpha-2 country code of `address` (dotted IPv4 or IPv6 text) in `db`,
/// written to `out` (two bytes, not terminated): 2 when found, 0 when the address is not
/// an address, is not in the database, or its record has no two-letter code.
///
/// In C because `MMDB_get_value` is variadic and the entry's value is an anonymous
/// union: Swift imports neither well. The address is parsed here (no getaddrinfo, which
/// `MMDB_lookup_string` calls); an IPv4-mapped IPv6 address is looked up as IPv4. The
/// record's `country`, else its `registered_country` (MaxMind's and DB-IP's layouts).
static inline int biqli_mmdb_country(const MMDB_s *db, const char *address, char *out) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *sa;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        sa = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
        if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr)) {
            v4.sin_family = AF_INET;
            memcpy(&v4.sin_addr, &v6.sin6_addr.s6_addr[12], 4);
            sa = (const struct sockaddr *)&v4;
        } else {
            v6.sin6_family = AF_INET6;
            sa = (const struct sockaddr *)&v6;
        }
    } else {
        return 0;
    }
    int error = MMDB_SUCCESS;
    MMDB_lookup_result_s result = MMDB_lookup_sockaddr(db, sa, &error);
    if (error != MMDB_SUCCESS || !result.found_entry) return 0;
    static const char *const country[] = {"country", "iso_code", NULL};
    static const char *const registered[] = {"registered_country", "iso_code", NULL};
    MMDB_entry_data_s data;
    if (MMDB_aget_value(&result.entry, &data, country) != MMDB_SUCCESS || !data.has_data) {
        if (MMDB_aget_value(&result.entry, &data, registered) != MMDB_SUCCESS || !data.has_data) return 0;
    }
    if (data.type != MMDB_DATA_TYPE_UTF8_STRING || data.data_size != 2) return 0;
    out[0] = data.utf8_string[0];
    out[1] = data.utf8_string[1];
    return 2;
}
