¬
"serveD
 
serving_default_xPlaceholder
 
yIdentityserving_default_x*[
serving_defaultH

x
serving_default_x:0
y
y:0tensorflow/serving/predict