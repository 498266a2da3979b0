/* Where questions land: the map view (site_src/views/map.js) of the help center, on the plane the
 * build drew (own: site_src/labs/map/data.py, the projection that kept the most nearest
 * neighbours), with its nearest passages. */
RAG.lab("map", { shows: "map", input: (lab) => ({ corpus: lab.corpus, places: lab.own, nearest: lab.own.nearest,
                                                  dimensions: lab.data.model.dimensions, prefix: "map" }) });
