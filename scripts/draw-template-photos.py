#!/usr/bin/env python3
"""Draws the bakery template's product pictures (control-plane/seed/images/*.jpg).

Every shape is drawn here from code, so the pictures are ours (CC0, see the README beside
them). Needs Pillow (`pip install pillow`); the output is deterministic (seeded noise), so
running it again gives the same files and the same upload keys.

    python3 scripts/draw-template-photos.py
"""

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

OUT = Path(__file__).resolve().parent.parent / "control-plane" / "seed" / "images"
W, H = 800, 600
S = 2  # supersampling


def lerp(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def backdrop(top, bottom, table, table_dark):
    """A wall gradient over a wooden table with grain."""
    img = Image.new("RGB", (W * S, H * S))
    d = ImageDraw.Draw(img)
    horizon = int(H * S * 0.42)
    for y in range(horizon):
        d.line([(0, y), (W * S, y)], fill=lerp(top, bottom, y / horizon))
    rnd = random.Random(7)
    for y in range(horizon, H * S):
        t = (y - horizon) / (H * S - horizon)
        d.line([(0, y), (W * S, y)], fill=lerp(table, table_dark, t * 0.8))
    for _ in range(140):
        y = rnd.randint(horizon, H * S)
        x = rnd.randint(-200, W * S)
        length = rnd.randint(200, 900)
        shade = lerp(table, table_dark, rnd.random())
        d.line([(x, y), (x + length, y + rnd.randint(-6, 6))], fill=shade, width=rnd.randint(2, 5))
    return img, horizon


def shadow(img, box, blur=28, strength=110):
    """A soft contact shadow (an ellipse) under an object."""
    layer = Image.new("L", img.size, 0)
    ImageDraw.Draw(layer).ellipse(box, fill=strength)
    layer = layer.filter(ImageFilter.GaussianBlur(blur * S))
    dark = Image.new("RGB", img.size, (40, 25, 15))
    img.paste(dark, (0, 0), layer)


def shaded_ellipse(img, box, base, light, dark, highlight=True):
    """An ellipse lit from the top left: a radial blend from light to dark."""
    x0, y0, x1, y1 = box
    w, h = int(x1 - x0), int(y1 - y0)
    tile = Image.new("RGB", (w, h))
    px = tile.load()
    cx, cy = w * 0.35, h * 0.3
    rmax = math.hypot(w, h) * 0.75
    for y in range(h):
        for x in range(w):
            t = min(1.0, math.hypot(x - cx, y - cy) / rmax)
            px[x, y] = lerp(light, dark, t) if t > 0.25 else lerp(light, base, 0.2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).ellipse([0, 0, w - 1, h - 1], fill=255)
    img.paste(tile, (int(x0), int(y0)), mask)
    if highlight:
        hl = Image.new("L", img.size, 0)
        ImageDraw.Draw(hl).ellipse(
            [x0 + w * 0.2, y0 + h * 0.12, x0 + w * 0.45, y0 + h * 0.3], fill=90
        )
        hl = hl.filter(ImageFilter.GaussianBlur(6 * S))
        img.paste(Image.new("RGB", img.size, (255, 246, 220)), (0, 0), hl)


def crumbs(d, rnd, area, colors, n=60):
    x0, y0, x1, y1 = area
    for _ in range(n):
        x, y = rnd.uniform(x0, x1), rnd.uniform(y0, y1)
        r = rnd.uniform(1.5, 4.5) * S
        d.ellipse([x - r, y - r, x + r, y + r], fill=rnd.choice(colors))


def finish(img, name):
    img = img.resize((W, H), Image.LANCZOS)
    rnd = random.Random(name)
    grain = Image.effect_noise((W, H), 10).convert("RGB")
    img = Image.blend(img, grain, 0.035)
    del rnd
    OUT.mkdir(parents=True, exist_ok=True)
    img.save(OUT / f"{name}.jpg", "JPEG", quality=80, optimize=True, progressive=True)


def pao_de_queijo():
    img, horizon = backdrop((246, 236, 218), (233, 214, 186), (150, 98, 60), (96, 58, 34))
    d = ImageDraw.Draw(img)
    # A round straw basket seen from above at an angle.
    bx0, by0, bx1, by1 = 150 * S, 230 * S, 650 * S, 560 * S
    shadow(img, [bx0 + 20 * S, by1 - 70 * S, bx1 + 10 * S, by1 + 30 * S])
    d.ellipse([bx0, by0, bx1, by1], fill=(196, 152, 92))
    for i in range(9):
        inset = i * 9 * S
        d.ellipse([bx0 + inset, by0 + inset * 0.7, bx1 - inset, by1 - inset * 0.7],
                  outline=(170, 124, 70) if i % 2 else (214, 174, 112), width=4 * S)
    d.ellipse([bx0 + 60 * S, by0 + 45 * S, bx1 - 60 * S, by1 - 45 * S], fill=(236, 226, 206))
    rnd = random.Random(1)
    spots = [(250, 300), (330, 285), (410, 282), (490, 292), (560, 318), (225, 370), (305, 360),
             (385, 352), (465, 358), (545, 380), (290, 430), (380, 425), (470, 432)]
    for x, y in sorted(spots, key=lambda p: p[1]):
        r = rnd.uniform(44, 52)
        box = [(x - r) * S, (y - r * 0.82) * S, (x + r) * S, (y + r * 0.82) * S]
        shadow(img, [box[0] + 6 * S, box[3] - 18 * S, box[2] + 10 * S, box[3] + 12 * S], 6, 90)
        shaded_ellipse(img, box, (226, 176, 92), (246, 214, 150), (186, 124, 52))
        dd = ImageDraw.Draw(img)
        for _ in range(14):  # cheese blisters
            a, rr = rnd.uniform(0, 6.28), rnd.uniform(0, r * 0.7)
            cx, cy = (x + math.cos(a) * rr) * S, (y + math.sin(a) * rr * 0.8) * S
            k = rnd.uniform(2, 5) * S
            dd.ellipse([cx - k, cy - k, cx + k, cy + k], fill=(200, 140, 62))
    finish(img, "pao-de-queijo")


def pao_fermentacao():
    img, horizon = backdrop((238, 232, 222), (220, 206, 186), (120, 84, 56), (72, 48, 30))
    d = ImageDraw.Draw(img)
    # A floured wooden board.
    d.rounded_rectangle([110 * S, 300 * S, 690 * S, 560 * S], radius=30 * S, fill=(196, 150, 100))
    d.rounded_rectangle([110 * S, 300 * S, 690 * S, 545 * S], radius=30 * S, fill=(214, 170, 118))
    rnd = random.Random(2)
    crumbs(d, rnd, (140 * S, 320 * S, 660 * S, 530 * S), [(246, 240, 230), (236, 228, 214)], 260)
    box = [180 * S, 150 * S, 620 * S, 500 * S]
    shadow(img, [200 * S, 420 * S, 640 * S, 520 * S], 20, 130)
    shaded_ellipse(img, box, (176, 104, 48), (222, 160, 92), (120, 62, 26), highlight=False)
    d = ImageDraw.Draw(img)
    # The scoring: an "ear" curve and flour on the crust.
    for k in range(3):
        off = (k - 1) * 80 * S
        d.arc([260 * S + off, 200 * S, 420 * S + off, 460 * S], 250, 330, fill=(236, 212, 170), width=14 * S)
        d.arc([262 * S + off, 206 * S, 418 * S + off, 454 * S], 255, 325, fill=(150, 84, 36), width=5 * S)
    flour = Image.new("L", img.size, 0)
    fd = ImageDraw.Draw(flour)
    for _ in range(900):
        a, r = rnd.uniform(0, 6.28), rnd.uniform(0, 1) ** 0.6
        x, y = 400 + math.cos(a) * r * 200, 300 + math.sin(a) * r * 150
        k = rnd.uniform(1, 3)
        fd.ellipse([(x - k) * S, (y - k) * S, (x + k) * S, (y + k) * S], fill=rnd.randint(60, 150))
    flour = flour.filter(ImageFilter.GaussianBlur(2 * S))
    img.paste(Image.new("RGB", img.size, (250, 244, 232)), (0, 0), flour)
    finish(img, "pao-de-fermentacao-natural")


def bolo_fuba():
    img, horizon = backdrop((250, 240, 226), (238, 220, 196), (168, 118, 78), (110, 70, 42))
    d = ImageDraw.Draw(img)
    # A plate, then a round cake with a slice taken out.
    shadow(img, [130 * S, 470 * S, 680 * S, 580 * S], 22, 120)
    d.ellipse([120 * S, 330 * S, 680 * S, 560 * S], fill=(244, 244, 240))
    d.ellipse([160 * S, 350 * S, 640 * S, 540 * S], fill=(230, 230, 226))
    cx, top, bot, rx, ry = 400 * S, 230 * S, 390 * S, 220 * S, 80 * S
    side = (222, 168, 70)
    d.rectangle([cx - rx, top, cx + rx, bot], fill=side)
    d.ellipse([cx - rx, bot - ry, cx + rx, bot + ry], fill=(198, 142, 52))
    d.ellipse([cx - rx, top - ry, cx + rx, top + ry], fill=(236, 190, 96))
    # The cut: the inside crumb with guava pieces, as a wedge towards the viewer.
    wedge = [(cx, top), (cx + 40 * S, top + ry), (cx + 40 * S, bot + ry), (cx, bot)]
    d.polygon(wedge, fill=(248, 214, 128))
    wedge2 = [(cx, top), (cx - 110 * S, top + ry - 10 * S), (cx - 110 * S, bot + ry - 10 * S), (cx, bot)]
    d.polygon(wedge2, fill=(242, 204, 116))
    rnd = random.Random(3)
    for _ in range(9):
        x = rnd.uniform(cx - 100 * S, cx + 30 * S)
        y = rnd.uniform(top + 60 * S, bot + 40 * S)
        w, h = rnd.uniform(14, 24) * S, rnd.uniform(10, 18) * S
        d.rounded_rectangle([x, y, x + w, y + h], radius=4 * S, fill=(176, 40, 46))
    crumbs(d, rnd, (cx - rx + 20 * S, top - ry + 20 * S, cx + rx - 20 * S, top + ry - 20 * S),
           [(226, 176, 84), (244, 204, 120)], 120)
    # A slice on the plate in front.
    s0 = (520 * S, 430 * S)
    d.polygon([s0, (640 * S, 400 * S), (650 * S, 470 * S), (530 * S, 500 * S)], fill=(244, 206, 118))
    d.polygon([s0, (640 * S, 400 * S), (628 * S, 385 * S), (512 * S, 412 * S)], fill=(214, 158, 66))
    for _ in range(4):
        x, y = rnd.uniform(540, 620) * S, rnd.uniform(425, 470) * S
        d.rounded_rectangle([x, y, x + 16 * S, y + 12 * S], radius=3 * S, fill=(176, 40, 46))
    finish(img, "bolo-de-fuba-com-goiabada")


def croissant():
    img, horizon = backdrop((244, 238, 230), (226, 214, 198), (140, 102, 72), (86, 60, 40))
    d = ImageDraw.Draw(img)
    shadow(img, [170 * S, 420 * S, 650 * S, 540 * S], 22, 130)
    d.ellipse([150 * S, 360 * S, 660 * S, 560 * S], fill=(242, 240, 236))
    # Segments along a crescent, biggest in the middle.
    segs = 7
    for i in range(segs):
        t = i / (segs - 1)
        a = math.pi * (1.08 - 1.16 * t)
        cx = 405 + math.cos(a) * 190
        cy = 430 - math.sin(a) * 120
        size = 54 + 56 * math.sin(math.pi * t)
        box = [(cx - size) * S, (cy - size * 0.78) * S, (cx + size) * S, (cy + size * 0.78) * S]
        shaded_ellipse(img, box, (206, 128, 46), (240, 182, 96), (150, 78, 22), highlight=i in (2, 3, 4))
        dd = ImageDraw.Draw(img)
        dd.arc(box, 200, 340, fill=(120, 60, 18), width=3 * S)
    finish(img, "croissant-de-manteiga")


def cesta():
    img, horizon = backdrop((244, 236, 222), (228, 210, 184), (150, 104, 66), (92, 60, 36))
    d = ImageDraw.Draw(img)
    rnd = random.Random(5)
    # The basket.
    shadow(img, [120 * S, 470 * S, 560 * S, 580 * S], 22, 130)
    d.rounded_rectangle([120 * S, 330 * S, 540 * S, 540 * S], radius=40 * S, fill=(186, 136, 76))
    for y in range(340, 540, 18):
        d.line([(130 * S, y * S), (530 * S, y * S)], fill=(160, 112, 58), width=5 * S)
    for x in range(140, 540, 28):
        d.line([(x * S, 335 * S), (x * S, 535 * S)], fill=(206, 160, 98), width=3 * S)
    d.arc([150 * S, 150 * S, 510 * S, 480 * S], 195, 345, fill=(150, 104, 54), width=16 * S)
    # A loaf and rolls peeking out, and a checked napkin.
    d.polygon([(140 * S, 340 * S), (230 * S, 290 * S), (330 * S, 330 * S), (250 * S, 360 * S)], fill=(200, 50, 44))
    for k in range(4):
        d.line([(160 * S + k * 40 * S, 330 * S), (220 * S + k * 35 * S, 298 * S)], fill=(246, 236, 230), width=6 * S)
    shaded_ellipse(img, [210 * S, 250 * S, 420 * S, 360 * S], (176, 104, 48), (224, 160, 92), (124, 66, 28))
    shaded_ellipse(img, [380 * S, 280 * S, 500 * S, 360 * S], (226, 176, 92), (246, 214, 150), (186, 124, 52))
    # A coffee cup on a saucer.
    shadow(img, [560 * S, 470 * S, 720 * S, 540 * S], 14, 110)
    d = ImageDraw.Draw(img)
    d.ellipse([560 * S, 455 * S, 720 * S, 525 * S], fill=(246, 246, 242))
    d.rounded_rectangle([585 * S, 380 * S, 695 * S, 490 * S], radius=26 * S, fill=(250, 250, 246))
    d.ellipse([585 * S, 365 * S, 695 * S, 400 * S], fill=(250, 250, 246))
    d.ellipse([593 * S, 369 * S, 687 * S, 396 * S], fill=(92, 52, 28))
    d.ellipse([610 * S, 374 * S, 650 * S, 386 * S], fill=(170, 116, 70))
    d.arc([680 * S, 400 * S, 730 * S, 455 * S], 270, 90, fill=(250, 250, 246), width=10 * S)
    # A jar of red-berry jam and two oranges.
    d.rounded_rectangle([470 * S, 390 * S, 545 * S, 505 * S], radius=12 * S, fill=(150, 26, 50))
    d.rectangle([466 * S, 380 * S, 549 * S, 398 * S], fill=(214, 190, 140))
    d.rectangle([480 * S, 420 * S, 535 * S, 460 * S], fill=(246, 236, 212))
    for ox, oy in ((90, 470), (60, 520)):
        shaded_ellipse(img, [ox * S, (oy - 40) * S, (ox + 80) * S, (oy + 40) * S], (232, 130, 30), (250, 176, 72), (196, 96, 16))
    crumbs(ImageDraw.Draw(img), rnd, (150 * S, 520 * S, 560 * S, 580 * S), [(220, 170, 100), (236, 200, 140)], 40)
    finish(img, "cesta-de-cafe-da-manha")


if __name__ == "__main__":
    pao_de_queijo()
    pao_fermentacao()
    bolo_fuba()
    croissant()
    cesta()
    for f in sorted(OUT.glob("*.jpg")):
        print(f.name, f.stat().st_size)
