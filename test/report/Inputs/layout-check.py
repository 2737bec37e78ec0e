"""Copies an HTML report with a script added that measures the roofline as the browser laid it out: every
pair of labels (ceilings, ridge points, kernels) whose boxes intersect, every pair of dots of different
kernels whose centres are closer than half the smaller radius (one would hide the other, or they would read
as one ring), and every label a dot covers part of (a kernel's own label beside its own dot aside). The
script writes the counts to <body data-labels data-label-overlaps data-dots data-dot-overlaps
data-label-dot-overlaps> and the pairs to <pre id="layout-overlaps">; run the copy through chromium.py.

usage: layout-check.py REPORT.html OUT.html
"""
import sys

Check = r"""<script>
(function () {
  var svg = document.querySelector('svg.roofline');
  var labels = Array.prototype.slice.call(svg.querySelectorAll('g.ceiling text, g.ridge text, text.label'));
  var found = [];
  function meets(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }
  var boxes = labels.map(function (t) { return t.getBoundingClientRect(); });
  var labelOverlaps = 0;
  for (var i = 0; i < labels.length; ++i)
    for (var j = i + 1; j < labels.length; ++j)
      if (meets(boxes[i], boxes[j])) { ++labelOverlaps; found.push('label: ' + labels[i].textContent + ' | ' + labels[j].textContent); }
  var dots = Array.prototype.slice.call(svg.querySelectorAll('circle.dot'));
  var dotOverlaps = 0;
  for (var i = 0; i < dots.length; ++i)
    for (var j = i + 1; j < dots.length; ++j) {
      var a = dots[i], b = dots[j];
      if (a.closest('g.kernel') === b.closest('g.kernel')) continue;
      var d = Math.hypot(a.cx.baseVal.value - b.cx.baseVal.value, a.cy.baseVal.value - b.cy.baseVal.value);
      if (d < 0.5 * Math.min(a.r.baseVal.value, b.r.baseVal.value)) {
        ++dotOverlaps;
        found.push('dot: ' + a.closest('g.kernel').getAttribute('data-kernel') + ' ' + a.getAttribute('class') + ' | ' +
                   b.closest('g.kernel').getAttribute('data-kernel') + ' ' + b.getAttribute('class'));
      }
    }
  // A dot covers a label where its circle reaches into the label's box.
  var labelDotOverlaps = 0;
  for (var i = 0; i < labels.length; ++i)
    for (var j = 0; j < dots.length; ++j) {
      var kernel = labels[i].closest('g.kernel');
      if (kernel && kernel === dots[j].closest('g.kernel')) continue;
      var c = dots[j].getBoundingClientRect(), b = boxes[i];
      var cx = (c.left + c.right) / 2, cy = (c.top + c.bottom) / 2, r = (c.right - c.left) / 2;
      var nx = Math.max(b.left, Math.min(cx, b.right)), ny = Math.max(b.top, Math.min(cy, b.bottom));
      if (Math.hypot(cx - nx, cy - ny) < r) {
        ++labelDotOverlaps;
        found.push('label under dot: ' + labels[i].textContent + ' | ' +
                   dots[j].closest('g.kernel').getAttribute('data-kernel') + ' ' + dots[j].getAttribute('class'));
      }
    }
  document.body.setAttribute('data-labels', String(labels.length));
  document.body.setAttribute('data-label-overlaps', String(labelOverlaps));
  document.body.setAttribute('data-dots', String(dots.length));
  document.body.setAttribute('data-dot-overlaps', String(dotOverlaps));
  document.body.setAttribute('data-label-dot-overlaps', String(labelDotOverlaps));
  var pre = document.createElement('pre');
  pre.id = 'layout-overlaps';
  pre.textContent = found.join('\n');
  document.body.appendChild(pre);
})();
</script>
"""

page = open(sys.argv[1]).read()
if "</body>" not in page:
    sys.exit("layout-check.py: no </body> in " + sys.argv[1])
open(sys.argv[2], "w").write(page.replace("</body>", Check + "</body>", 1))
