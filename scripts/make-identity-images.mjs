// Draws the fictional portraits and signatures of fixtures/identity as small PNGs.
// Nobody real: flat cartoon faces from a few shapes. Run: node scripts/make-identity-images.mjs
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const CRC = new Int32Array(256).map((_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c
})
const crc32 = (buf) => {
  let c = -1
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}
function png(w, h, pixel) {
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0
    for (let x = 0; x < w; x++) raw.set(pixel(x, y), y * (w * 3 + 1) + 1 + x * 3)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}
const inEllipse = (x, y, cx, cy, rx, ry) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1

function portrait({ bg, skin, hair, shirt, long = false }) {
  return png(96, 96, (x, y) => {
    if (inEllipse(x, y, 36, 42, 4, 3) || inEllipse(x, y, 60, 42, 4, 3)) return [30, 30, 40]
    if (y > 58 && y < 62 && x > 38 && x < 58 && inEllipse(x, y, 48, 56, 12, 8)) return [150, 60, 60]
    if (inEllipse(x, y, 48, 24, 26, 16) && y < 34) return hair
    if (inEllipse(x, y, 48, 46, 22, 27)) return skin
    if (long && inEllipse(x, y, 48, 50, 30, 34) && (x < 26 || x > 70)) return hair
    if (inEllipse(x, y, 48, 104, 40, 30)) return shirt
    return bg
  })
}

function signature(seed) {
  return png(120, 40, (x, y) => {
    const line = 20 + Math.round(9 * Math.sin((x + seed) / 7) + 4 * Math.sin((x * seed) / 23))
    return x > 8 && x < 112 && Math.abs(y - line) <= 1 ? [20, 30, 90] : [250, 250, 246]
  })
}

const out = new URL('../fixtures/identity/', import.meta.url)
const faces = {
  'bvn-chinedu.png': { bg: [214, 228, 240], skin: [141, 85, 36], hair: [25, 20, 20], shirt: [40, 90, 160] },
  'bvn-ngozi.png': { bg: [240, 224, 214], skin: [120, 72, 40], hair: [20, 15, 15], shirt: [170, 50, 90], long: true },
  'vnin-aisha.png': { bg: [220, 240, 220], skin: [150, 95, 55], hair: [30, 25, 25], shirt: [60, 140, 90], long: true },
  'vnin-tunde.png': { bg: [236, 236, 210], skin: [110, 66, 34], hair: [15, 15, 15], shirt: [90, 90, 100] },
  'passport-kwame.png': { bg: [232, 232, 232], skin: [100, 60, 30], hair: [10, 10, 10], shirt: [30, 30, 60] },
  'passport-ama.png': { bg: [228, 236, 244], skin: [125, 78, 42], hair: [35, 25, 20], shirt: [200, 140, 40], long: true },
  'nin-adaeze.png': { bg: [226, 236, 222], skin: [132, 80, 44], hair: [22, 18, 18], shirt: [120, 60, 150], long: true },
  'ssnit-kofi.png': { bg: [240, 232, 216], skin: [105, 63, 32], hair: [12, 12, 12], shirt: [30, 110, 70] },
  'id-wanjiru.png': { bg: [222, 230, 246], skin: [118, 72, 38], hair: [28, 22, 20], shirt: [180, 80, 40], long: true },
  'said-thabo.png': { bg: [244, 238, 226], skin: [96, 58, 30], hair: [18, 16, 16], shirt: [50, 70, 130] },
  'matching-selfie.png': { bg: [255, 240, 200], skin: [160, 110, 70], hair: [60, 40, 20], shirt: [220, 60, 60] },
  'other-selfie.png': { bg: [200, 200, 255], skin: [90, 55, 30], hair: [80, 80, 80], shirt: [20, 120, 120] },
}
for (const [name, f] of Object.entries(faces)) writeFileSync(new URL(name, out), portrait(f))
writeFileSync(new URL('signature-kwame.png', out), signature(3))
writeFileSync(new URL('signature-ama.png', out), signature(11))
