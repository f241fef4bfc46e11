#include "CAPNSMockBuildInfo.h"

#ifndef APNS_MOCK_COMMIT
#define APNS_MOCK_COMMIT "unknown"
#endif

const char *apnsmock_build_commit(void) { return APNS_MOCK_COMMIT; }
