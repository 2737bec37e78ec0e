"""Copies an HTML report with a script added that uses the page as a person would and measures the result,
after the report's own script ran: the page and the kernel table must not scroll sideways, no label may
leave the plot; a click on a column sorts the table (checked on the numbers behind the cells), text in
the filter box hides the other kernels' rows and fades their dots, and a click on a row shows that
kernel's detail panel and names its dot when the plot had not labelled it. The results go to attributes
of <body> (data-check-*); run the copy through chromium.py.

usage: html-check.py REPORT.html OUT.html FILTER-TEXT
"""
import json
import sys

Check = r"""<script>
(function () {
  var b = document.body, html = document.documentElement;
  function set(name, value) { b.setAttribute('data-check-' + name, String(value)); }
  set('page-overflow', html.scrollWidth - html.clientWidth);
  var scroll = document.querySelector('.table-scroll');
  set('table-overflow', scroll.scrollWidth - scroll.clientWidth);
  var svg = document.querySelector('svg.roofline'), frame = svg.getBoundingClientRect();
  var outside = 0;
  svg.querySelectorAll('text').forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5) ++outside;
  });
  set('labels-outside', outside);
  set('kernel-labels', svg.querySelectorAll('text.label').length);
  // Sort by time (largest first), then by name.
  var heads = Array.prototype.slice.call(document.querySelectorAll('table.kernels thead th'));
  function column(name) { return heads.findIndex(function (h) { return h.textContent === name; }); }
  function rows() { return Array.prototype.slice.call(document.querySelectorAll('table.kernels tbody tr')); }
  function sorted(values, descending) {
    for (var i = 1; i < values.length; ++i)
      if (descending ? values[i - 1] < values[i] : values[i - 1] > values[i]) return false;
    return true;
  }
  var time = column('time');
  heads[time].click(); heads[time].click(); // descending, ascending
  var ascending = sorted(rows().map(function (r) { return parseFloat(r.cells[time].getAttribute('data-sort')); }), false);
  heads[time].click();
  var descending = sorted(rows().map(function (r) { return parseFloat(r.cells[time].getAttribute('data-sort')); }), true);
  set('sort-time', (ascending && descending ? 'ok ' : 'wrong ') + b.getAttribute('data-sorted'));
  heads[0].click();
  set('sort-name', (sorted(rows().map(function (r) { return r.cells[0].textContent.toLowerCase(); }), false) ? 'ok ' : 'wrong ') +
      b.getAttribute('data-sorted'));
  heads[time].click(); // back to time order
  // Filter, then clear it.
  var filter = document.getElementById('filter');
  filter.value = FILTER;
  filter.dispatchEvent(new Event('input'));
  set('filter', b.getAttribute('data-shown') + ' rows, ' + rows().filter(function (r) { return !r.hidden; }).length +
      ' visible, ' + svg.querySelectorAll('g.kernel.filtered-out').length + ' dots faded');
  filter.value = '';
  filter.dispatchEvent(new Event('input'));
  // Select the last kernel with a dot.
  var groups = svg.querySelectorAll('g.kernel'), last = groups[groups.length - 1];
  var i = last.id.substring(last.id.lastIndexOf('-') + 1);
  document.getElementById('row-kernel-' + i).click();
  var shown = Array.prototype.slice.call(document.querySelectorAll('.kernel-detail')).filter(function (d) { return !d.hidden; });
  set('select', 'kernel ' + b.getAttribute('data-selected') + ', ' + shown.length + ' panel shown (' +
      (shown.length ? shown[0].id : '') + '), ' + (last.classList.contains('unlabelled') ? 'unlabelled' : 'labelled') +
      ' dot named ' + (last.querySelector('text.label') ? last.querySelector('text.label').textContent : '(none)'));
  set('page-overflow-selected', html.scrollWidth - html.clientWidth);
  window.scrollTo(0, 0);
})();
</script>
"""

page = open(sys.argv[1]).read()
if "</body>" not in page:
    sys.exit("html-check.py: no </body> in " + sys.argv[1])
check = Check.replace("FILTER", json.dumps(sys.argv[3]))
open(sys.argv[2], "w").write(page.replace("</body>", check + "</body>", 1))
