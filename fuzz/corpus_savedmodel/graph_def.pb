
 
serving_default_xPlaceholder
 
yIdentityserving_default_x