#!/usr/bin/env python3
# Appends a real replay to OUT in chunks, as a recorder writes it. For a
# Slippi file the raw length is 0 while writing and set at the end, as
# Dolphin does.  usage: writer.py SRC OUT [CHUNK] [DELAY]
import sys, time, struct
src, out = sys.argv[1], sys.argv[2]
chunk = int(sys.argv[3]) if len(sys.argv) > 3 else 2048
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.1
data = open(src, 'rb').read()
slp = data.startswith(b'{U\x03raw[$U#l')
live = bytearray(data)
if slp:
    live[11:15] = b'\0\0\0\0'
with open(out, 'wb') as f:
    for i in range(0, len(live), chunk):
        f.write(live[i:i+chunk]); f.flush()
        time.sleep(delay)
    if slp:
        f.seek(11); f.write(data[11:15]); f.flush()
