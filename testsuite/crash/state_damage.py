#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""state_damage.py MODE FILE [NOW] - damage one of priority/treeshare's
state files in place, as a crash, a bad disk or a stepped clock would,
for the crash tests (testsuite/crash/cluster_crash.sh).

MODE: torn (cut to half), corrupt (one bit of the middle byte flipped),
zero (zero length), random (as many random bytes), trailing (8 bytes
appended), future (the last decay and save time an hour after NOW, the
CRC made right), negative (the last decay time -1, CRC made right).
The layouts are src/usage_state.h's and src/decay_record.h's; zlib's
crc32 is theirs.
"""
import os
import struct
import sys
import time
import zlib


def reseal(data):
    """The CRC-32 of all but the last 4 bytes, stored in them."""
    return data[:-4] + struct.pack('<I', zlib.crc32(data[:-4]) & 0xffffffff)


def set_times(path, data, last_ran, saved_at):
    if os.path.basename(path).startswith('priority_last_decay_ran'):
        # multifactor's big-endian pair, then treeshare's trailer
        data = struct.pack('>q', last_ran) + data[8:]
        return reseal(data) if len(data) == 28 else data
    # treeshare_state: saved_at at 24, last_ran at 32 (little-endian)
    data = (data[:24] + struct.pack('<q', saved_at) +
            struct.pack('<q', last_ran) + data[40:])
    return reseal(data)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    now = int(sys.argv[3]) if len(sys.argv) > 3 else int(time.time())
    with open(path, 'rb') as f:
        data = f.read()
    if mode == 'torn':
        data = data[:len(data) // 2]
    elif mode == 'corrupt':
        mid = len(data) // 2
        data = data[:mid] + bytes([data[mid] ^ 0x10]) + data[mid + 1:]
    elif mode == 'zero':
        data = b''
    elif mode == 'random':
        data = os.urandom(max(len(data), 16))
    elif mode == 'trailing':
        data += b'trailing'
    elif mode == 'future':
        data = set_times(path, data, now + 3600, now + 3600)
    elif mode == 'negative':
        saved = struct.unpack('<q', data[24:32])[0] if len(data) > 40 else 0
        data = set_times(path, data, -1, saved)
    else:
        sys.exit('state_damage.py: unknown mode ' + mode)
    with open(path, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
