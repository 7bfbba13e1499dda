// Reads a valgrind `lackey --trace-mem=yes` trace on stdin and counts, per
// instruction address, the loads the processor cannot forward from a store
// in flight: a load that overlaps one of the last W stores but whose bytes
// do not all come from one store (a load wider than the store it reads, one
// that spans two stores, or one part store, part cache).
// W is about the store buffer of a current x86 core. Prints "pc count".
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#define W 56
#define HS (1<<20)
typedef struct { uint64_t a; int s; } St;
St ring[W]; int head = 0, n = 0;
uint64_t keys[HS]; uint64_t cnt[HS];
static void bump(uint64_t pc) {
  uint64_t h = (pc * 0x9E3779B97F4A7C15ull) >> 44;
  while (keys[h] && keys[h] != pc) h = (h + 1) & (HS - 1);
  keys[h] = pc; cnt[h]++;
}
int main() {
  char line[256]; uint64_t pc = 0;
  while (fgets(line, sizeof line, stdin)) {
    if (line[0] == 'I') { pc = strtoull(line + 3, NULL, 16); continue; }
    if (line[0] != ' ') continue;
    char k = line[1]; char *c; uint64_t a = strtoull(line + 3, &c, 16); int s = atoi(c + 1);
    if (k == 'L' || k == 'M') {
      int covered = 0, bad = 0, src = -2;
      for (uint64_t b = a; b < a + s; b++) {
        int y = -1;
        for (int i = 0; i < n; i++) {
          int j = (head - 1 - i + W) % W;
          if (ring[j].a <= b && b < ring[j].a + ring[j].s) { y = j; break; }
        }
        if (y >= 0) covered++;
        if (src == -2) src = y; else if (src != y) bad = 1;
      }
      if (covered && (bad || src < 0)) bump(pc);
      else if (covered && !(ring[src].a <= a && a + s <= ring[src].a + ring[src].s)) bump(pc);
    }
    if (k == 'S' || k == 'M') { ring[head].a = a; ring[head].s = s; head = (head + 1) % W; if (n < W) n++; }
  }
  for (int i = 0; i < HS; i++) if (keys[i]) printf("%lx %lu\n", keys[i], cnt[i]);
  return 0;
}
