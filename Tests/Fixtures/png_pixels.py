#!/usr/bin/env python3
"""Reads pixels of an 8-bit, non-interlaced PNG with the standard library only (zlib).

    png_pixels.py FILE at X,Y ...             one "R G B A" line per point
    png_pixels.py FILE count RRGGBB TOLERANCE  pixels within TOLERANCE of the colour
    png_pixels.py FILE size                    "WIDTH HEIGHT"

The report tests check rsvg-convert's and Chromium's renderings with it, so they need
no imaging package.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(colour)
    if depth != 8 or channels is None or interlace:
        sys.exit(f"{path}: only 8-bit non-interlaced grey/RGB/RGBA PNGs are read (depth {depth}, colour {colour})")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def pixel(image, x, y):
    width, height, channels, rows = image
    if not (0 <= x < width and 0 <= y < height):
        return (0, 0, 0, 0)
    p = rows[y][x * channels:(x + 1) * channels]
    if channels == 1:
        return (p[0], p[0], p[0], 255)
    if channels == 2:
        return (p[0], p[0], p[0], p[1])
    return (p[0], p[1], p[2], p[3] if channels == 4 else 255)


def main():
    path, mode, *args = sys.argv[1:]
    image = decode(path)
    if mode == "size":
        print(image[0], image[1])
    elif mode == "at":
        for point in args:
            x, y = (int(round(float(v))) for v in point.split(","))
            print(*pixel(image, x, y))
    elif mode == "count":
        want = tuple(int(args[0][i:i + 2], 16) for i in (0, 2, 4))
        tolerance = int(args[1])
        n = 0
        for y in range(image[1]):
            for x in range(image[0]):
                p = pixel(image, x, y)
                if p[3] > 200 and all(abs(p[k] - want[k]) <= tolerance for k in range(3)):
                    n += 1
        print(n)
    else:
        sys.exit(f"unknown mode {mode}")


main()
