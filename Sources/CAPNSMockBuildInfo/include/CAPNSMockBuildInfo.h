#ifndef CAPNSMOCKBUILDINFO_H
#define CAPNSMOCKBUILDINFO_H

/// The git commit the binary was built from ("0123abc", with "-dirty" when the tree had changes),
/// or "unknown" outside a git checkout. Package.swift defines APNS_MOCK_COMMIT from the manifest's
/// git information: Swift has no define that carries a value, a C target's define does.
const char *apnsmock_build_commit(void);

#endif
