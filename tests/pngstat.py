#!/usr/bin/env python3
"""pngstat.py FILE [X0 Y0 X1 Y1]: what a screenshot shows, for the tests.

Prints "width height nonwhite colored": the pixels (in the box, if given)
that are not near white, and those with a strong colour (a plotted line,
not text or a grid, which are grey).  Reads the 8-bit RGB and RGBA PNGs
that Chromium writes, with the standard library only.
"""
import struct
import sys
import zlib


def rows(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("pngstat: %s: not a PNG" % path)
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit("pngstat: %s: only 8-bit RGB(A), not interlaced" % path)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, out = bytearray(stride), []
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line)
        prev = line
    return w, h, bpp, out


def main():
    w, h, bpp, px = rows(sys.argv[1])
    x0, y0, x1, y1 = (int(v) for v in sys.argv[2:6]) if len(sys.argv) == 6 else (0, 0, w, h)
    nonwhite = colored = 0
    for y in range(max(0, y0), min(h, y1)):
        line = px[y]
        for x in range(max(0, x0), min(w, x1)):
            r, g, b = line[x * bpp], line[x * bpp + 1], line[x * bpp + 2]
            if min(r, g, b) < 235:
                nonwhite += 1
            if max(r, g, b) - min(r, g, b) > 80:
                colored += 1
    print(w, h, nonwhite, colored)


main()
