"""Copies an HTML report with a script added that measures the roofline as the browser laid it out: every
pair of labels (ceilings, ridge points, kernels) whose boxes intersect, and every pair of dots of different
kernels whose centres are closer than half the smaller radius (one would hide the other, or they would read
as one ring). The script writes the counts to <body data-labels data-label-overlaps data-dots
data-dot-overlaps> and the pairs to <pre id="layout-overlaps">; run the copy through chromium.py.

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
  document.body.setAttribute('data-labels', String(labels.length));
  document.body.setAttribute('data-label-overlaps', String(labelOverlaps));
  document.body.setAttribute('data-dots', String(dots.length));
  document.body.setAttribute('data-dot-overlaps', String(dotOverlaps));
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
