-- SPDX-License-Identifier: MIT
-- md-links.lua - links of a lab guide page, for its HTML in build/: a
-- link to another page of the guide (page.md) goes to its HTML
-- (page.html); any other relative link or image is one folder up.
local function relocate(target)
  if target:match("^%a[%w+.-]*:") or target:match("^#") or
     target:match("^/") then
    return target
  end
  local page, anchor = target:match("^([^/]+)%.md(#?.*)$")
  if page then
    return page .. ".html" .. anchor
  end
  return "../" .. target
end

function Link(el)
  el.target = relocate(el.target)
  return el
end

function Image(el)
  el.src = relocate(el.src)
  return el
end
